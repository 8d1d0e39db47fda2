import type { Problem } from '../../shared/errors';
import { sessionHeaders } from './session';

/**
 * The one HTTP helper every endpoint goes through. The page authenticates with the session it
 * got for its launch link (./session.ts), sent as a header: no key and no cookie.
 */

export type ConnectionState = 'online' | 'offline' | 'unauthorized';

/** A problem+json error (or a network failure, code `network`) the UI can show as it is. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly problems: Problem[];
  readonly extensions: Record<string, unknown>;

  constructor(init: {
    status: number;
    code: string;
    title: string;
    detail: string;
    problems?: Problem[];
    extensions?: Record<string, unknown>;
  }) {
    super(init.detail);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.problems = init.problems ?? [];
    this.extensions = init.extensions ?? {};
  }

  /** The message for a field path like `values.headline`, if the server named one. */
  problemFor(path: string): string | undefined {
    return this.problems.find((p) => p.path === path)?.message;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

let connectionListener: (state: ConnectionState) => void = () => {};

/** The store subscribes here to show the reconnecting banner. */
export function onConnectionChange(listener: (state: ConnectionState) => void): void {
  connectionListener = listener;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export interface RequestOptions {
  query?: Query;
  /** JSON-encoded unless it is a Blob/File (sent raw). */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Sends a request and returns the raw Response when it succeeded; throws ApiError otherwise. */
export async function send(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    ...options.headers,
    ...sessionHeaders(),
  };
  let body: BodyInit | undefined;
  if (options.body instanceof Blob) {
    body = options.body;
    headers['Content-Type'] ??= options.body.type || 'application/octet-stream';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] = 'application/json';
  }
  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), {
      method,
      headers,
      body,
      credentials: 'omit',
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    connectionListener('offline');
    throw new ApiError({
      status: 0,
      code: 'network',
      title: 'The app core is not reachable',
      detail: 'The app core is not answering. It restarts by itself; retrying…',
    });
  }
  if (response.status === 401) connectionListener('unauthorized');
  else connectionListener('online');
  if (response.ok) return response;
  throw await problemFrom(response);
}

async function problemFrom(response: Response): Promise<ApiError> {
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      const json = (await response.json()) as Record<string, unknown>;
      const { status, code, title, detail, errors, type: _type, ...extensions } = json;
      return new ApiError({
        status: typeof status === 'number' ? status : response.status,
        code: typeof code === 'string' ? code : 'http-' + response.status,
        title: typeof title === 'string' ? title : response.statusText,
        detail: typeof detail === 'string' ? detail : response.statusText,
        problems: Array.isArray(errors) ? (errors as Problem[]) : [],
        extensions,
      });
    } catch {
      // Fall through to a generic error below.
    }
  }
  return new ApiError({
    status: response.status,
    code: 'http-' + response.status,
    title: response.statusText || 'Request failed',
    detail: `The server answered ${response.status} ${response.statusText}.`,
  });
}

export async function getJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send('GET', path, options);
  return (await response.json()) as T;
}

export async function sendJson<T>(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const response = await send(method, path, options);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
