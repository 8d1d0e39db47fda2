import fs from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, resolveCommandSettings, type CommandSettings } from '../config.js';
import { EXIT_CODES_HELP } from './exit-codes.js';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Options every engine command takes. */
export const COMMON_OPTIONS = {
  'data-dir': { type: 'string' },
  workers: { type: 'string' },
  'render-timeout': { type: 'string' },
  'allow-image-urls': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

export const COMMON_HELP = `Common options:
  --data-dir <folder>  the data folder (default: the app's, or RENDER_DESK_DATA_DIR); credits,
                       templates and fonts are the app's own
  --workers <n>        render threads (default: the app's setting, or one per core)
  --render-timeout <s> stop a render that takes longer (seconds, 0.1–600; default 20, or
                       RENDER_DESK_RENDER_TIMEOUT)
  --allow-image-urls   fetch http(s) image values for this command even when the app's setting
                       is off (its allow-list of hosts and every address rule still apply)
  -h, --help           this help`;

/**
 * What render, batch and check all take, with one meaning: the template, its layout, the output
 * format and the brand that fills brand-bound values, and --json for a result a script reads.
 */
export const TEMPLATE_OPTIONS = {
  template: { type: 'string' },
  target: { type: 'string' },
  format: { type: 'string' },
  brand: { type: 'string' },
  json: { type: 'boolean' },
} as const satisfies Options;

/** An engine command's help: its own text, then the options all of them take and the exit codes. */
export function engineCommandHelp(text: string): string {
  return `${text}
${COMMON_HELP}

${EXIT_CODES_HELP}`;
}

type ParsedValues<T extends Options> = ReturnType<
  typeof parseArgs<{ options: T; allowPositionals: true }>
>['values'];

type StringOption<T extends Options> = {
  [K in keyof T]: T[K] extends { type: 'string'; multiple?: false } ? K : never;
}[keyof T] &
  string;

/** A command's options as given, and the check every command makes of the ones it needs. */
export interface CommandOptions<T extends Options> {
  values: ParsedValues<T>;
  /** A string option the command cannot run without; absent or empty, a usage error names it. */
  required(name: StringOption<T>): string;
}

/**
 * Reads a command's options (no positionals). With --help it prints the help instead and
 * returns null: the command then exits 0 having done nothing.
 */
export async function readCommandOptions<T extends Options>(
  command: string,
  args: string[],
  options: T,
  help: string | (() => Promise<string>),
): Promise<CommandOptions<T> | null> {
  const { values } = parseCommand(command, args, options);
  if ((values as { help?: boolean }).help) {
    console.log(typeof help === 'string' ? help : await help());
    return null;
  }
  return {
    values,
    required: (name) =>
      requireOption(command, name, (values as Record<string, string | undefined>)[name]),
  };
}

/** parseArgs, with its errors turned into usage errors that name the command. */
export function parseCommand<T extends Options>(
  command: string,
  args: string[],
  options: T,
  positionals = 0,
): {
  values: ParsedValues<T>;
  positionals: string[];
} {
  let parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(`${command}: ${(error as Error).message}`);
  }
  if (parsed.positionals.length > positionals && !(parsed.values as { help?: boolean }).help) {
    throw new UsageError(
      `${command}: unexpected argument "${parsed.positionals[positionals] ?? ''}"`,
    );
  }
  return { values: parsed.values, positionals: parsed.positionals };
}

export function requireOption(command: string, name: string, value: string | undefined): string {
  if (value === undefined || value === '')
    throw new UsageError(`${command}: --${name} is required (see render-desk ${command} --help)`);
  return value;
}

export type CliSettings = CommandSettings;

/** The command's settings, read once in config.ts; a bad value is a usage error (exit 2). */
export function cliSettings(
  values: Parameters<typeof resolveCommandSettings>[0],
  env: NodeJS.ProcessEnv = process.env,
): CliSettings {
  try {
    return resolveCommandSettings(values, env);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

/** `--values '{"title":"Hi"}'` or `--values @values.json`: a JSON object. */
export function readJsonObject(name: string, raw: string): Record<string, unknown> {
  let text = raw;
  if (raw.startsWith('@')) {
    const file = raw.slice(1);
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(
        `--${name}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--${name} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new UsageError(
      `--${name} must be a JSON object of variable values, like {"title": "Hello"}`,
    );
  return parsed as Record<string, unknown>;
}
