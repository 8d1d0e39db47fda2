import { startCore } from './app.js';
import { ClusterConfigError } from './cluster/cluster-config-error.js';
import { ConfigError, resolveConfig } from './config.js';

/** Headless entry: `npm run serve -- --port 5317 --data-dir ./data`. */
async function main(): Promise<void> {
  let config;
  try {
    config = resolveConfig(process.argv.slice(2));
  } catch (error) {
    if (
      error instanceof ConfigError ||
      error instanceof ClusterConfigError ||
      (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
    ) {
      console.error(`render-desk: ${(error as Error).message}`);
      process.exit(2);
    }
    throw error;
  }
  // Handlers first: a supervisor may send SIGTERM the moment it reads the UI line, and a signal
  // with no handler yet would kill the process without its graceful stop.
  const running: { core?: { close(): Promise<void> } } = {};
  let stopping: string | undefined;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = signal;
    if (running.core) shutDown(running.core, signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  const logger = config.logRequests ?? false;
  if (config.cluster) {
    // Loaded only here: its queue, database and object-store clients are a third of a local
    // core's start.
    const { startClusterNode } = await import('./cluster/start-cluster-node.js');
    const node = await startClusterNode({ ...config, cluster: config.cluster }, { logger });
    running.core = node;
    if (stopping) {
      shutDown(node, stopping);
      return;
    }
    console.log(
      `Render Desk cluster node ${node.nodeId} started as ${node.role} (workers: ${config.workers})`,
    );
    if (node.core) {
      console.log(`Render Desk is listening on ${node.core.url} (data: ${node.core.dataDir})`);
      if (node.core.createdKeySecret)
        console.log(`API key (shown once, store it now): ${node.core.createdKeySecret}`);
    }
    return;
  }
  const core = await startCore(config, { logger });
  running.core = core;
  if (stopping) {
    shutDown(core, stopping);
    return;
  }
  console.log(
    `Render Desk is listening on ${core.url} (data: ${core.dataDir}, workers: ${core.pool.threads})`,
  );
  console.log(`UI: ${core.uiLink()}`);
  if (core.createdKeySecret) {
    console.log(`API key (shown once, store it now): ${core.createdKeySecret}`);
  }
}

function shutDown(core: { close(): Promise<void> }, signal: string): void {
  console.log(`Received ${signal}; finishing in-flight requests and shutting down.`);
  core.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

main().catch((error: unknown) => {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') {
    console.error(
      'render-desk: the port is in use. Choose another with --port or RENDER_DESK_PORT (0 picks a free one).',
    );
  } else {
    console.error(error);
  }
  process.exit(1);
});
