/**
 * A repository's methods as promises. The SQLite repositories are synchronous (better-sqlite3);
 * PostgreSQL is not. Services speak the async form, so one service runs on either store.
 */
export type AsyncPort<R> = {
  [K in keyof R]: R[K] extends (...args: infer A) => infer T
    ? (...args: A) => Promise<Awaited<T>>
    : never;
};

/** The async form of a synchronous repository: each call runs now and resolves with its result. */
export function asyncPort<R extends object>(repository: R): AsyncPort<R> {
  const port: Record<string, unknown> = {};
  for (const key of Object.keys(repository) as (keyof R & string)[]) {
    const method = repository[key];
    if (typeof method !== 'function') continue;
    port[key] = (...args: unknown[]): Promise<unknown> => {
      try {
        return Promise.resolve((method as (...a: unknown[]) => unknown).apply(repository, args));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
  }
  return port as AsyncPort<R>;
}
