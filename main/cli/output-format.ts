import path from 'node:path';
import { OutputFormat } from '../../shared/api-schemas.js';
import { UsageError } from './usage-error.js';

/** File extensions of each output format (`.jpg` and `.jpeg` are both JPEG). */
const BY_EXTENSION: Record<string, OutputFormat> = { '.jpg': 'jpeg' };
for (const format of OutputFormat.options) BY_EXTENSION[`.${format}`] = format;

export const FORMAT_NAMES = OutputFormat.options.join('|');

/**
 * The format asked for with --format, else the one the output file's extension names, else PNG.
 * A --format that contradicts the extension is a mistake worth stopping for.
 */
export function outputFormat(
  command: string,
  requested: string | undefined,
  outFile: string | undefined,
): OutputFormat {
  const fromName = outFile ? BY_EXTENSION[path.extname(outFile).toLowerCase()] : undefined;
  if (requested === undefined) return fromName ?? 'png';
  const parsed = OutputFormat.safeParse(requested === 'jpg' ? 'jpeg' : requested);
  if (!parsed.success)
    throw new UsageError(`${command}: --format must be one of ${FORMAT_NAMES}; got "${requested}"`);
  if (fromName && fromName !== parsed.data)
    throw new UsageError(
      `${command}: --format ${requested} does not match the file name ${path.basename(outFile ?? '')}; change one of them`,
    );
  return parsed.data;
}
