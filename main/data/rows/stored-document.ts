import type { z } from 'zod';
import { AppError } from '../../../shared/errors.js';
import type { Problem } from '../../../shared/errors.js';

/**
 * Validates a document read back from the database. A row written by an older version or edited
 * by hand must not reach the renderer unchecked, and a bad row is reported (500), never silently
 * replaced by an empty document.
 */
export function validStored<T>(
  schema: z.ZodType<T>,
  value: unknown,
  what: string,
  problems: (error: z.ZodError) => Problem[],
): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new AppError(
      'internal',
      `The stored ${what} is invalid: ` +
        problems(result.error)
          .map((p) => `${p.path}: ${p.message}`)
          .join('; '),
    );
  }
  return result.data;
}
