import { startCore } from './app.js';
import { ConfigError, resolveConfig } from './config.js';

/** Headless entry: `npm run serve -- --port 5317 --data-dir ./data`. */
async function main(): Promise<void> {
  let config;
  try {
    config = resolveConfig(process.argv.slice(2));
  } catch (error) {
    if (
      error instanceof ConfigError ||
      (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
    ) {
      console.error(`render-desk: ${(error as Error).message}`);
      process.exit(2);
    }
    throw error;
  }
  // Handlers first: a supervisor may send SIGTERM the moment it reads the UI line, and a signal
  // with no handler yet would kill the process without its graceful stop.
  const running: { core?: Awaited<ReturnType<typeof startCore>> } = {};
  let stopping: string | undefined;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = signal;
    if (running.core) shutDown(running.core, signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  const core = await startCore(config, { logger: process.env.RENDER_DESK_LOG === '1' });
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

function shutDown(core: Awaited<ReturnType<typeof startCore>>, signal: string): void {
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
