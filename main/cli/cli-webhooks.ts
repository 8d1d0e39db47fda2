import type { CoreData } from '../data/core-data.js';

/**
 * How long a command waits as it exits for the webhook deliveries still due: one attempt's time
 * limit, so that a receiver that answers as docs/integrations.md asks (within 10 s) gets its
 * delivery from this process. A delivery left over is sent by the app when it next runs.
 */
export const SEND_BEFORE_EXIT_MS = 10_000;

/** A command's share of the data folder's outgoing webhooks. */
export interface CliWebhooks {
  /** The data given, whose batch commands queue webhook events as the app's do. */
  data: CoreData;
  /** Sends what is due, for up to SEND_BEFORE_EXIT_MS, and says what stays queued. */
  sendBeforeExit(): Promise<void>;
  /** Stops without waiting for anything (the command failed before it ran). */
  close(): Promise<void>;
}

/**
 * Outgoing webhooks for a command that runs batches (batch, mcp), set up as the app does
 * (`coreWebhooks`): a batch that ends or a row that fails queues a delivery in the data
 * folder's SQLite and is sent at once. Undefined when the folder has no enabled webhook: then
 * nothing can be queued, and the command loads no dispatcher and waits for nothing as it exits.
 * (A webhook added in the app while the command runs applies from the next command.)
 */
export async function cliWebhooks(
  data: CoreData,
  log: (line: string) => void = (line) => console.error(line),
): Promise<CliWebhooks | undefined> {
  const repository = data.webhooks;
  if (!(await repository.list()).some((webhook) => webhook.enabled)) return undefined;
  const { coreWebhooks } = await import('../webhooks/core-webhooks.js');
  const started = new Date().toISOString();
  const webhooks = coreWebhooks(data, {
    log: (message, detail) => console.error(message, detail),
  });
  // Polled while the command runs, as in the app (a retry may fall due during a long batch).
  // The app may be running on this folder and sending its own deliveries: those it has
  // claimed are left to it.
  webhooks.dispatcher.start();
  return {
    data: webhooks.data,
    async sendBeforeExit() {
      await webhooks.dispatcher.sendDueThenClose(SEND_BEFORE_EXIT_MS);
      const left = (await repository.deliveries({ limit: 100 })).filter(
        (delivery) => delivery.status === 'pending' && delivery.createdAt >= started,
      );
      if (left.length === 0) return;
      const reason = left[0]!.lastError ? ` (${left[0]!.lastError})` : '';
      log(
        left.length === 1
          ? `render-desk: 1 webhook delivery is not sent yet${reason}; it stays queued in the data folder and the app sends it when it next runs`
          : `render-desk: ${left.length} webhook deliveries are not sent yet${reason}; they stay queued in the data folder and the app sends them when it next runs`,
      );
    },
    close: () => webhooks.dispatcher.close(),
  };
}
