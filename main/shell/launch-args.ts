import path from 'node:path';

/** Flags of the core (main/config.ts) that `npm start -- --port 5317 …` passes through the shell. */
const CORE_FLAGS = new Set([
  'port',
  'data-dir',
  'api-key',
  'credits',
  'rate-limit',
  'workers',
  'subscription',
  'render-timeout',
]);

export interface LaunchArgs {
  /** Files to open: "Open with Render Desk", or a second launch given a file. */
  files: string[];
  /** Core flags as `--name value` pairs, in the order given. */
  coreArgs: string[];
}

/**
 * Reads the app's command line. Chromium and Electron add `--switches` of their own (ignored),
 * and in development the first argument after the binary is the app folder.
 */
export function parseLaunchArgs(
  argv: readonly string[],
  options: { packaged: boolean; workingDirectory: string; isFile: (candidate: string) => boolean },
): LaunchArgs {
  const rest = argv.slice(options.packaged ? 1 : 2);
  const files: string[] = [];
  const coreArgs: string[] = [];
  for (let i = 0; i < rest.length; i += 1) {
    const argument = rest[i] ?? '';
    if (argument.startsWith('--')) {
      const [name = '', inline] = argument.slice(2).split(/=(.*)/s, 2);
      if (!CORE_FLAGS.has(name)) continue;
      const value = inline ?? rest[(i += 1)];
      if (value !== undefined) coreArgs.push(`--${name}`, value);
      continue;
    }
    if (!argument || argument.startsWith('-')) continue;
    const candidate = path.resolve(options.workingDirectory, argument);
    if (options.isFile(candidate) && !files.includes(candidate)) files.push(candidate);
  }
  return { files, coreArgs };
}

/** The value of `--name` in `--name value` pairs, if given. */
export function coreFlag(coreArgs: readonly string[], name: string): string | undefined {
  for (let i = coreArgs.length - 2; i >= 0; i -= 2)
    if (coreArgs[i] === `--${name}`) return coreArgs[i + 1];
  return undefined;
}

/** `--name value` pairs without the named flags. */
export function withoutFlags(coreArgs: readonly string[], names: readonly string[]): string[] {
  const result: string[] = [];
  for (let i = 0; i + 1 < coreArgs.length; i += 2) {
    const name = coreArgs[i] ?? '';
    if (!names.includes(name.replace(/^--/, ''))) result.push(name, coreArgs[i + 1] ?? '');
  }
  return result;
}
