import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import {
  AppError,
  ERROR_CATALOGUE,
  Errors,
  isAppError,
  type ErrorCode,
} from '../../../shared/errors.js';
import { logServerError } from '../server-error-log.js';

/** Errors of a full disk, from Node's fs and from SQLite. */
const DISK_FULL = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/** Every error leaves as RFC 9457 application/problem+json with a stable code. */
export function registerProblemJson(app: FastifyInstance): void {
  app.setNotFoundHandler(async (request, reply) => {
    return sendProblem(
      reply,
      new AppError('not-found', `No route ${request.method} ${request.url.split('?')[0]}.`),
    );
  });

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const appError = toAppError(error, request.headers['content-type']);
    if (appError.status >= 500) {
      request.log.error({ err: error }, 'request failed');
      logServerError(request, appError.status, error);
    }
    return sendProblem(reply, appError);
  });
}

export function sendProblem(reply: FastifyReply, error: AppError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  if (error.code === 'unauthorized') reply.header('WWW-Authenticate', 'Bearer realm="render-desk"');
  return reply
    .code(error.status)
    .header('Cache-Control', 'no-store')
    .type('application/problem+json; charset=utf-8')
    .send(JSON.stringify(error.toProblem()));
}

function toAppError(error: FastifyError, contentType: string | undefined): AppError {
  if (isAppError(error)) return error;
  if (isDiskFull(error)) return Errors.diskFull();
  // Coded errors from lower layers (spreadsheet readers) whose code is in the catalogue.
  const coded = error as { code?: string; location?: Record<string, unknown> };
  if (
    typeof coded.code === 'string' &&
    coded.code in ERROR_CATALOGUE &&
    !coded.code.startsWith('FST_')
  ) {
    return new AppError(coded.code as ErrorCode, error.message, {
      extensions: { ...(coded.location ?? {}) },
    });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      // The parser also refuses prototype keys (they could poison objects built from the body)
      // and does not say which of the two it was.
      return new AppError(
        'malformed-json',
        'The body is not valid JSON, or it uses a key named __proto__ or constructor.prototype, which is refused. Check the JSON syntax and rename such keys.',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('malformed-json', 'The body is empty but Content-Type says JSON.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(
        'payload-too-large',
        'The request body is over the limit for this endpoint.',
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(
        'unsupported-media-type',
        contentType
          ? `Content-Type "${contentType.slice(0, 100)}" is not accepted here; send application/json.`
          : 'The request has a body but no Content-Type; send it as application/json.',
      );
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('bad-request', 'Content-Length does not match the body.');
  }
  // Only the JSON body parser's own errors (above) say the body is not JSON. Any other 400 (a
  // multipart part named `constructor`, a plugin's refusal) is the request's fault for the reason
  // Fastify gives, whatever its Content-Type; calling it "not valid JSON" sent people looking for
  // a syntax error in a body that had none.
  if (error.statusCode === 400) {
    return new AppError('bad-request', `The request was refused: ${withFullStop(error.message)}`);
  }
  if (error.statusCode === 413) return new AppError('payload-too-large', error.message);
  if (error.statusCode === 415) return new AppError('unsupported-media-type', error.message);
  return new AppError('internal', 'Something went wrong on our side. The error was logged.');
}

function withFullStop(text: string): string {
  const trimmed = text.trim().slice(0, 300);
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** A full disk, also when a lower layer wrapped it (`cause`). */
export function isDiskFull(error: unknown): boolean {
  for (let cause = error, hops = 0; cause && hops < 5; hops += 1) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && DISK_FULL.has(code)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}
