import { isAppError } from '../../shared/errors.js';
import { ClusterConfigError } from '../cluster/cluster-config-error.js';
import { EXIT, EXIT_CODES_HELP, exitCodeFor } from './exit-codes.js';
import { terminalStyle, type TerminalStyle } from './terminal-style.js';

const HELP = `render-desk <command> [options]

Commands:
  render         one image from a template and values, rendered in this process
  batch          a CSV, XLSX or JSON file of rows into a folder or a .zip of images
  check          pre-flight a source without rendering: overflowing text, missing glyphs, bad values
  templates      list, show, fork, export and import templates
  mcp            a local MCP server (stdio) for AI assistants, acting as one API key
  serve          the headless server (flags as in the README: --port, --data-dir, …; cluster
                 nodes add --cluster, --role api|worker|all, --host, --allowed-hosts)
  cluster init   prepare PostgreSQL, Redis and the object store for cluster mode

render, batch, check and templates use the app's data folder (its credits, templates and fonts)
unless --data-dir names another. Run "render-desk <command> --help" for a command's options.

${EXIT_CODES_HELP}`;

const ARGUMENT_ERRORS = new Set([
  'usage',
  'queue-setting',
  'secret-on-command-line',
  'cluster-url-missing',
  'cluster-url-invalid',
  'role-invalid',
  'allowed-hosts-missing',
  'cluster-only-setting',
]);

type Command = (args: string[], style: TerminalStyle) => Promise<number>;

/** Engine commands are loaded on demand: `--help` and `serve` do not pay for the engine. */
const COMMANDS: Record<string, () => Promise<Command>> = {
  render: async () => (await import('./render-command.js')).renderCommand,
  batch: async () => (await import('./batch-command.js')).batchCommand,
  check: async () => (await import('./check-command.js')).checkCommand,
  templates: async () => (await import('./templates-command.js')).templatesCommand,
  mcp: async () => (await import('./mcp-command.js')).mcpCommand,
};

/** The `render-desk` command. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'serve') {
    process.argv = [process.argv[0] ?? 'node', 'serve', ...rest];
    await import('../serve.js');
    return -1;
  }
  if (command === 'cluster') {
    // Loaded on demand: it brings the PostgreSQL, Redis and S3 clients.
    const { CLUSTER_INIT_HELP, clusterInit } = await import('./cluster-init.js');
    const [sub, ...options] = rest;
    if (sub === 'init') return clusterInit(options, (line) => console.log(line));
    console.error(
      sub
        ? `render-desk cluster: unknown command "${sub}"\n\n${CLUSTER_INIT_HELP}`
        : CLUSTER_INIT_HELP,
    );
    return EXIT.usage;
  }
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    console.log(HELP);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  const load = COMMANDS[command];
  if (!load) {
    console.error(`render-desk: unknown command "${command}"\n\n${HELP}`);
    return EXIT.usage;
  }
  const run = await load();
  try {
    return await run(rest, terminalStyle(process.stdout));
  } catch (error) {
    reportError(error, rest.includes('--json'));
    return exitCodeFor(error);
  }
}

/** What went wrong, with each problem on its line; as JSON on stdout for --json. */
function reportError(error: unknown, json: boolean): void {
  const code = (error as { code?: unknown }).code;
  const problems = isAppError(error) ? (error.problems ?? []) : [];
  if (json) {
    console.log(
      JSON.stringify({
        error: {
          code: typeof code === 'string' ? code : 'internal',
          message: (error as Error).message,
          ...(problems.length > 0 ? { problems } : {}),
        },
      }),
    );
    return;
  }
  const style = terminalStyle(process.stderr);
  const message =
    problems.length > 0
      ? `${problems.length === 1 ? 'a problem' : `${problems.length} problems`} (${String(code)}):`
      : ((error as Error).message ?? String(error));
  console.error(`${style.red('render-desk:')} ${message}`);
  for (const problem of problems) console.error(`  ${problem.path}: ${problem.message}`);
  if (exitCodeFor(error) === EXIT.failure && !isAppError(error) && process.env.RENDER_DESK_DEBUG)
    console.error(error);
}

main(process.argv.slice(2)).then(
  (code) => {
    // serve keeps running; every other command ends here.
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    // Bad arguments exit 2; a service that refused (Redis may evict, a store that fails) exits 1.
    const usage =
      (error instanceof ClusterConfigError && ARGUMENT_ERRORS.has(error.code)) ||
      (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ||
      (error as { code?: string }).code === 'validation-failed';
    console.error(`render-desk: ${(error as Error).message}`);
    process.exit(usage ? 2 : 1);
  },
);
