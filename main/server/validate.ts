import type { z } from 'zod';
import { Errors } from '../../shared/errors.js';
import { zodProblems } from '../../shared/zod-problems.js';

/** Parses with a schema; failures become a 422 validation-failed listing every problem. */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  data: unknown,
  prefix = '',
): z.infer<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw Errors.validation(zodProblems(result.error, prefix));
  return result.data;
}
