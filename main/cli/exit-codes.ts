import { isAppError } from '../../shared/errors.js';

/**
 * The exit codes of `render-desk` (docs/cli.md). Scripts and CI read them: 1 means the command
 * ran and found something wrong with the data, so a build can fail on it without confusing it
 * with a mistyped command (2) or an empty account (3).
 */
export const EXIT = {
  ok: 0,
  /** `check` found problems, `batch` had failed rows, `render` refused the values. */
  problems: 1,
  /** Unknown command or option, a missing or malformed argument, an unreadable file, a bad key. */
  usage: 2,
  /** Not enough credits, or the subscription has lapsed. */
  credits: 3,
  /** Anything else: a render that failed in the engine, a full disk, an unexpected error. */
  failure: 4,
  /** Stopped by Ctrl-C (SIGINT), as shells report it. */
  interrupted: 130,
} as const;

export const EXIT_CODES_HELP = `Exit codes:
  0    success
  1    problems found: check listed problems or warnings, batch had failed rows, render refused
       the values
  2    usage error: unknown command or option, missing or bad argument, unknown template,
       unreadable file, an API key that is missing, unknown or of too low a scope (mcp)
  3    not enough credits, or the subscription has lapsed
  4    any other failure (a render the engine could not draw, a full disk, an unexpected error)
  130  interrupted (Ctrl-C)`;

/** Error codes that mean the user asked for something that cannot be (what they can fix). */
const USAGE_CODES = new Set([
  'usage',
  'not-found',
  'unsupported-media-type',
  'invalid-spreadsheet',
  'unsupported-encoding',
  'no-rows-found',
  'sheet-not-found',
  'too-many-rows',
  'too-many-columns',
  'cell-too-large',
  'row-too-large',
  'invalid-archive',
  'archive-limits-exceeded',
  'pack-invalid',
  'pack-unsupported-version',
  'payload-too-large',
  'path-not-allowed',
  'conflict',
  'unauthorized',
  'insufficient-scope',
  'ERR_PARSE_ARGS_UNKNOWN_OPTION',
  'ERR_PARSE_ARGS_INVALID_OPTION_VALUE',
  'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL',
]);

const PROBLEM_CODES = new Set([
  'validation-failed',
  'image-invalid',
  'svg-external-reference',
  'barcode-invalid',
  'vietqr-invalid',
  'code-unreadable',
]);

/** The exit code for an error that ended a command. */
export function exitCodeFor(error: unknown): number {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'interrupted') return EXIT.interrupted;
  if (isAppError(error) && (code === 'insufficient-credits' || code === 'subscription-lapsed'))
    return EXIT.credits;
  if (typeof code === 'string' && USAGE_CODES.has(code)) return EXIT.usage;
  if (typeof code === 'string' && PROBLEM_CODES.has(code)) return EXIT.problems;
  return EXIT.failure;
}
