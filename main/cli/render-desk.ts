import { ClusterConfigError } from '../cluster/cluster-config-error.js';
import { CLUSTER_INIT_HELP, clusterInit } from './cluster-init.js';

const HELP = `render-desk <command> [options]

Commands:
  serve          the headless server (flags as in the README: --port, --data-dir, …; cluster
                 nodes add --cluster, --role api|worker|all, --host, --allowed-hosts)
  cluster init   prepare PostgreSQL, Redis and the object store for cluster mode

Run "render-desk <command> --help" for a command's options.`;

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

/** The `render-desk` command. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'serve') {
    process.argv = [process.argv[0] ?? 'node', 'serve', ...rest];
    await import('../serve.js');
    return -1;
  }
  if (command === 'cluster') {
    const [sub, ...options] = rest;
    if (sub === 'init') return clusterInit(options, (line) => console.log(line));
    console.error(
      sub
        ? `render-desk cluster: unknown command "${sub}"\n\n${CLUSTER_INIT_HELP}`
        : CLUSTER_INIT_HELP,
    );
    return 2;
  }
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    console.log(HELP);
    return command === undefined ? 2 : 0;
  }
  console.error(`render-desk: unknown command "${command}"\n\n${HELP}`);
  return 2;
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
