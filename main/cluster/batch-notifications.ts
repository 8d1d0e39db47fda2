import pg from 'pg';
import type { Batch } from '../../shared/batch-schemas.js';
import type { BatchEvents } from '../batch/batch-events.js';
import { BATCH_CHANNEL } from '../data/postgres/batch-notify.js';

/**
 * Progress events on an API node of a cluster: rows are committed by workers on other machines,
 * so the node LISTENs for PostgreSQL's notifications of batch changes and turns them into the
 * same events the embedded runner publishes. Notifications of one batch are coalesced to at most
 * one read every 250 ms; a dropped connection is re-opened (with a short pause).
 */
export class BatchNotifications {
  private client: pg.Client | null = null;
  private stopped = false;
  private readonly due = new Map<string, NodeJS.Timeout>();
  private readonly pace = new Map<string, { at: number; done: number }[]>();

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly events: BatchEvents,
    private readonly read: (batchId: string) => Promise<Batch | null>,
    private readonly log: (message: string, detail?: unknown) => void,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client(this.config);
    client.on('error', (error) => {
      this.log('the batch progress listener lost PostgreSQL; reconnecting', error);
      this.reconnect(client);
    });
    client.on('end', () => this.reconnect(client));
    client.on('notification', (message) => {
      if (message.channel === BATCH_CHANNEL && message.payload) this.schedule(message.payload);
    });
    await client.connect();
    await client.query(`LISTEN ${BATCH_CHANNEL}`);
    this.client = client;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.due.values()) clearTimeout(timer);
    this.due.clear();
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private reconnect(client: pg.Client): void {
    if (this.stopped || this.client !== client) return;
    this.client = null;
    void client.end().catch(() => undefined);
    setTimeout(() => {
      if (!this.stopped)
        this.start().catch((error: unknown) => {
          this.log('the batch progress listener could not reconnect yet', error);
          this.reconnect(new pg.Client(this.config));
        });
    }, 1000).unref();
  }

  private schedule(batchId: string): void {
    if (this.due.has(batchId)) return;
    this.due.set(
      batchId,
      setTimeout(() => {
        this.due.delete(batchId);
        void this.publish(batchId);
      }, 250),
    );
  }

  private async publish(batchId: string): Promise<void> {
    const batch = await this.read(batchId).catch(() => null);
    if (!batch) return;
    const done = batch.succeeded + batch.failed;
    const now = Date.now();
    const samples = (this.pace.get(batchId) ?? []).filter((s) => now - s.at <= 5000);
    samples.push({ at: now, done });
    this.pace.set(batchId, samples);
    const first = samples[0];
    const span = first ? (now - first.at) / 1000 : 0;
    const rowsPerSecond = span > 0.2 && first ? (done - first.done) / span : 0;
    const left = batch.total - done;
    this.events.publish({
      batch,
      rowsPerSecond: Math.round(rowsPerSecond * 10) / 10,
      secondsLeft: rowsPerSecond > 0 ? Math.ceil(left / rowsPerSecond) : null,
    });
    if (['succeeded', 'partial', 'failed', 'degraded', 'cancelled'].includes(batch.status))
      this.pace.delete(batchId);
  }
}
