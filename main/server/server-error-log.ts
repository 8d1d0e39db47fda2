import type { FastifyRequest } from 'fastify';

/** Query parameters that carry secrets: a UI launch token, a signed link's signature. */
const SECRET_PARAMS = /([?&](?:token|sig)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1<hidden>');
}

/**
 * Every 5xx goes to stderr with what was asked and the stack, whether or not request logging is
 * on (RENDER_DESK_LOG): "The error was logged" must be true, and an operator must be able to tell
 * a full disk from a bug without turning logging on and waiting for it to happen again.
 */
export function logServerError(
  request: Pick<FastifyRequest, 'method' | 'url'>,
  status: number,
  error: unknown,
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): void {
  write(
    `${new Date().toISOString()} render-desk: ${status} on ${request.method} ${redactUrl(request.url)}: ${problemDetail(error)}`,
  );
}

/** A fault that is not a response status (a download cut short, files gone), to stderr. */
export function logServerProblem(
  message: string,
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): void {
  write(`${new Date().toISOString()} render-desk: ${message}`);
}

/**
 * A problem's detail as log text: an error's stack; a `{ message, code }` (what the PostgreSQL parts
 * log, without the stack of a connection that merely dropped) as its message and code.
 */
export function problemDetail(detail: unknown): string {
  if (detail instanceof Error) return detail.stack ?? `${detail.name}: ${detail.message}`;
  if (typeof detail === 'object' && detail !== null && 'message' in detail) {
    const { message, code } = detail as { message: unknown; code?: unknown };
    if (typeof message === 'string')
      return typeof code === 'string' ? `${message} (${code})` : message;
  }
  return typeof detail === 'string' ? detail : (JSON.stringify(detail) ?? String(detail));
}

/**
 * A message and its problem's detail as one log line: "…; it will be replaced: terminating
 * connection (57P01)", the message's own closing full stop dropped before the colon.
 */
export function problemLine(message: string, detail?: unknown): string {
  if (detail === undefined) return message;
  return `${message.replace(/\.$/, '')}: ${problemDetail(detail)}`;
}
