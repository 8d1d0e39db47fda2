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
  const core = await startCore(config, { logger: process.env.RENDER_DESK_LOG === '1' });
  console.log(
    `Render Desk is listening on ${core.url} (data: ${core.dataDir}, workers: ${core.pool.threads})`,
  );
  console.log(`UI: ${core.uiLink()}`);
  if (core.createdKeySecret) {
    console.log(`API key (shown once, store it now): ${core.createdKeySecret}`);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Received ${signal}; finishing in-flight requests and shutting down.`);
    core.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
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
