import {
  COMMON_OPTIONS,
  cliSettings,
  engineCommandHelp,
  readCommandOptions,
} from './cli-options.js';
import { EXIT } from './exit-codes.js';
import { UsageError } from './usage-error.js';

export const MCP_HELP = engineCommandHelp(`render-desk mcp [--allow <folder>]… [options]

A local MCP server on stdin/stdout for AI assistants and other MCP clients. Tools:
list_templates, show_template, template_fields, preflight, render (returns the image),
start_batch, batch_status and bundle.

It acts as one API key of the data folder, given in RENDER_DESK_API_KEY (create one in the app's
Settings or with POST /v1/api-keys): the key's scope decides which tools work, renders and
batches are charged to it, and render takes an idempotencyKey as the API's Idempotency-Key.

Files are read and written only inside the folders given with --allow (none by default: rows
are then passed inline and images as data: URIs, upload ids or template assets), and never in
the data folder. Batches run in this process while the client keeps it open; one left
unfinished resumes when the app next starts.

Options:
  --allow <folder>     a folder sources, images and bundles may be in (repeat for more)`);

const OPTIONS = {
  ...COMMON_OPTIONS,
  allow: { type: 'string', multiple: true },
} as const;

/** `render-desk mcp`: serves MCP over stdio until the client closes it. */
export async function mcpCommand(args: string[]): Promise<number> {
  const options = await readCommandOptions('mcp', args, OPTIONS, MCP_HELP);
  if (!options) return EXIT.ok;
  const { values } = options;
  const secret = process.env.RENDER_DESK_API_KEY;
  if (!secret)
    throw new UsageError(
      'mcp: set RENDER_DESK_API_KEY to an API key of the data folder (the app shows the first one; make more in Settings → API keys)',
    );
  const settings = cliSettings(values);
  const { AllowedFolders } = await import('./allowed-folders.js');
  const folders = new AllowedFolders(values.allow ?? [], settings.dataDir);
  const { lazyRenderPool } = await import('../render/lazy-render-pool.js');
  const { composeLocalCore } = await import('./local-core.js');
  const core = await composeLocalCore(settings, lazyRenderPool, {
    restrictImages: (resolver) => folders.imageResolver(resolver),
    webhooks: true,
  });
  try {
    const key = await core.data.apiKeys.authenticate(secret);
    if (!key) {
      const { AppError } = await import('../../shared/errors.js');
      throw new AppError(
        'unauthorized',
        'RENDER_DESK_API_KEY is not an active API key of this data folder (unknown or revoked).',
      );
    }
    const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
    const { McpStdioTransport } = await import('./mcp-stdio-transport.js');
    const { registerRenderDeskTools } = await import('./mcp-tools.js');
    const { appVersion } = await import('./app-version.js');
    const server = new McpServer({ name: 'render-desk', version: appVersion() });
    registerRenderDeskTools(server, { core, principal: { id: key.id, scope: key.scope }, folders });
    const transport = new McpStdioTransport();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      process.once('SIGTERM', () => resolve());
      process.once('SIGINT', () => resolve());
    });
    await server.connect(transport);
    await closed;
    await server.close().catch(() => undefined);
    // stdin or stdout failed: the client cannot be told, so whoever started us is.
    if (transport.failure) {
      console.error(`render-desk mcp: stopped: stdio failed (${transport.failure.message})`);
      return EXIT.failure;
    }
    return EXIT.ok;
  } finally {
    await core.close();
  }
}
