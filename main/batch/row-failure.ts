import { isAppError } from '../../shared/errors.js';
import { describeRowError } from './render-batch-row.js';

/**
 * A failed row as it is recorded: `error` for the batch's own rows (the manifest, the API, the
 * app), which may quote the row's values (`no file at "/home/…/passport.png"`); `errorCode` and
 * `fields` for what leaves the machine (webhooks), which must not.
 */
export interface RowFailure {
  error: string;
  /** The error catalogue's code (`image-invalid`); `render-failed` for anything uncoded. */
  errorCode: string;
  /** The paths of the values at fault (`values.photo`): field names, never their values. */
  fields: string[];
}

export function rowFailure(error: unknown): RowFailure {
  if (!isAppError(error)) {
    return { error: describeRowError(error), errorCode: 'render-failed', fields: [] };
  }
  return {
    error: describeRowError(error),
    errorCode: error.code,
    fields: [...new Set((error.problems ?? []).map((problem) => problem.path))],
  };
}

/**
 * Why a batch stopped when its sheets could not be drawn, in words that may leave the machine
 * (the batch.finished webhook carries it): the error's code and the fields at fault, never the
 * message, which can quote a value. The whole error goes to the log.
 */
export function sheetsStopReason(error: unknown): string {
  const { errorCode, fields } = rowFailure(error);
  const where = fields.length > 0 ? ` at ${fields.slice(0, 10).join(', ')}` : '';
  return `the sheets could not be drawn (${errorCode}${where})`;
}
