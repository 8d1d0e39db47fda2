import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { AppError, Errors, isAppError } from '../../shared/errors.js';

/** The file of an upload request: the raw body, or the one multipart field `file`. */
export interface UploadBody {
  stream: Readable;
  /** The name the multipart part gives, if any. */
  filename: string | null;
  contentType: string | null;
  /**
   * Why the body stopped, when it was a multipart body that broke while it streamed (no closing
   * boundary, a malformed part): the error to answer instead of the stream's own.
   */
  failure(): AppError | null;
}

/**
 * The upload's bytes as a stream. A multipart body that cannot be parsed is the client's
 * mistake: 400 `bad-request` saying so, not the parser's bare error (which answered 500).
 */
export async function uploadBody(request: FastifyRequest, limitBytes: number): Promise<UploadBody> {
  if (!request.isMultipart()) {
    const stream = request.body as Readable | undefined;
    if (!stream || typeof stream.pipe !== 'function') {
      throw Errors.validation([{ path: 'file', message: 'send the file as the request body' }]);
    }
    return {
      stream,
      filename: null,
      contentType: request.headers['content-type'] ?? null,
      failure: () => null,
    };
  }
  let file;
  try {
    file = await request.file();
  } catch (error) {
    throw asUploadError(error);
  }
  if (!file || file.fieldname !== 'file') {
    throw Errors.validation([
      { path: 'file', message: 'send the file in a multipart field named "file"' },
    ]);
  }
  let failure: AppError | null = null;
  file.file.once('error', (error) => (failure = asUploadError(error)));
  file.file.on('limit', () =>
    file.file.destroy(
      new AppError('payload-too-large', `Uploads are limited to ${limitBytes / 1024 / 1024} MiB.`),
    ),
  );
  return {
    stream: file.file,
    filename: file.filename || null,
    contentType: file.mimetype,
    failure: () => failure,
  };
}

/** Our errors and the multipart plugin's limit errors (413) as they are; parse errors as 400. */
function asUploadError(error: unknown): AppError {
  if (isAppError(error)) return error;
  const status = (error as { statusCode?: unknown }).statusCode;
  if (status === 413) return new AppError('payload-too-large', (error as Error).message);
  if (typeof status === 'number' && status < 500) throw error;
  return new AppError(
    'bad-request',
    `The multipart body is malformed (${(error as Error).message}). Send the file as the raw body, or as one multipart field named "file" with a closing boundary.`,
  );
}
