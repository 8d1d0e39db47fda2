import type { z } from 'zod';
import type { Problem } from './errors.js';

/** Formats a zod path the way our problems name them: `values.headline`, `records[3].price`. */
export function formatPath(prefix: string, path: ReadonlyArray<PropertyKey>): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(body)';
}

/** One problem per zod issue; each unknown key is its own problem. */
export function zodProblems(error: z.ZodError, prefix = ''): Problem[] {
  return error.issues.flatMap((issue): Problem[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: formatPath(prefix, [...issue.path, key]),
        message: 'unknown property',
      }));
    }
    return [{ path: formatPath(prefix, issue.path), message: issue.message }];
  });
}
