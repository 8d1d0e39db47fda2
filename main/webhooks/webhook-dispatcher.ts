import type { AsyncPort } from '../data/async-port.js';
import type { DueDelivery, WebhooksRepository } from '../data/types/webhooks.js';
import { SIGNATURE_HEADER, signWebhook } from './webhook-signature.js';

export interface WebhookDispatcherOptions {
  /** The queue: the data's own store (SQLite embedded, PostgreSQL in a cluster). */
  repository: AsyncPort<WebhooksRepository>;
  /** Attempts before a delivery is given up (status failed). */
  maxAttempts?: number;
  /** The wait after the n-th failed attempt. Tests shorten it; nothing else sets it. */
  backoffMs?: (failedAttempts: number) => number;
  /** How often the queue is looked at for due deliveries. */
  pollMs?: number;
  /** One attempt's time limit (connect, send, answer). */
  timeoutMs?: number;
  /** Attempts in flight to one webhook at most, counting every process that sends. */
  perWebhook?: number;
  /** Attempts in flight from this process at most, all webhooks together. */
  inFlight?: number;
  userAgent?: string;
  log?: (message: string, detail?: unknown) => void;
}

export const DEFAULT_MAX_ATTEMPTS = 8;
/**
 * A receiver that hangs holds this many attempts and no more; the others' deliveries take the
 * remaining slots, so it delays them by nothing (one attempt's time limit at worst).
 */
const DEFAULT_PER_WEBHOOK = 4;
const DEFAULT_IN_FLIGHT = 16;
/** The delivery log keeps this many entries; finished ones beyond it go (pending ones stay). */
const LOG_KEPT = 1000;
const PRUNE_EVERY_MS = 10 * 60_000;
/**
 * How long a claim outlives its attempt's time limit. A live sender always records the outcome
 * before its claim expires; a sender that died (a node, the app, a command) gives the delivery
 * up this long after the limit, and whichever process polls next sends it.
 */
const CLAIM_MARGIN_MS = 20_000;

/** 10 s, 30 s, 90 s, 4.5 min, 13.5 min, 40.5 min, then hourly: about 2.5 hours in all. */
export function defaultBackoffMs(failedAttempts: number): number {
  return Math.min(60 * 60_000, 10_000 * 3 ** (failedAttempts - 1));
}

/**
 * Sends queued deliveries: a POST of the event as JSON, signed (Render-Desk-Signature). A 2xx
 * answer delivers it; anything else (another status, a redirect, no answer in time) is retried
 * after an exponential backoff until `maxAttempts`. The queue is a table of the data's store, so
 * a retry planned before a restart happens after it, and several processes (the app and a
 * command on one folder, the nodes of a cluster) may send from one queue: each delivery is
 * claimed by one of them. Deliveries go out independently: each claim takes only free slots
 * (per webhook, and for this process), and each attempt that ends frees its slot and claims the
 * next, so no attempt waits for another's answer.
 */
export class WebhookDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private prunedAt = 0;
  private closed = false;
  /** Set when `sendDueThenClose` runs out of time: no more attempts start. */
  private cutOff = false;
  /**
   * The attempts waiting for an answer, ended at the cut-off. A controller of their own rather
   * than one long-lived signal combined into each: on some Node versions every signal combined
   * with a long-lived one stays reachable from it (nodejs/node#55351), a leak in the app.
   */
  private readonly attempts = new Set<AbortController>();
  /** The attempts this process has in flight, each ending with its outcome recorded. */
  private readonly sending = new Set<Promise<void>>();
  private readonly maxAttempts: number;
  private readonly backoffMs: (failedAttempts: number) => number;
  private readonly timeoutMs: number;
  private readonly claimMs: number;
  private readonly perWebhook: number;
  private readonly inFlight: number;

  constructor(private readonly options: WebhookDispatcherOptions) {
    this.maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    this.backoffMs = options.backoffMs ?? defaultBackoffMs;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.claimMs = this.timeoutMs + CLAIM_MARGIN_MS;
    this.perWebhook = options.perWebhook ?? DEFAULT_PER_WEBHOOK;
    this.inFlight = options.inFlight ?? DEFAULT_IN_FLIGHT;
  }

  /**
   * Polls the queue from now on. A delivery another process is sending stays its own until its
   * claim expires (then this one sends it, if that process stopped).
   */
  start(): void {
    this.timer = setInterval(() => this.kick(), this.options.pollMs ?? 1000);
    this.timer.unref();
    this.kick();
  }

  /** Looks at the queue now (an event was just queued). */
  kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error: unknown) => this.options.log?.('webhook deliveries failed to run', error))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.running;
    await Promise.all(this.sending);
  }

  /**
   * Sends what is due now, for at most `withinMs`, then closes: a command-line run sends the
   * events it queued before it exits. An attempt still unanswered at the end is cut off and
   * counts as a failed attempt (retried after the usual backoff); a retry planned for later is
   * not waited for. Either stays in the queue for the next process that sends from it.
   */
  async sendDueThenClose(withinMs: number): Promise<void> {
    clearInterval(this.timer);
    const cutOff = setTimeout(() => {
      this.cutOff = true;
      for (const attempt of this.attempts) attempt.abort();
    }, withinMs);
    try {
      this.kick();
      // Each attempt that ends claims the next (kick), so this ends when nothing due is left.
      while (this.running || this.sending.size > 0)
        await (this.running ?? Promise.race(this.sending));
    } finally {
      clearTimeout(cutOff);
    }
    await this.close();
  }

  private async drain(): Promise<void> {
    if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      await this.options.repository.prune(LOG_KEPT);
    }
    for (;;) {
      // Past the cut-off a claimed delivery would fail unsent: it stays pending instead.
      if (this.cutOff || this.closed) return;
      const free = this.inFlight - this.sending.size;
      if (free <= 0) return;
      const now = Date.now();
      const due = await this.options.repository.claimDue(
        now,
        free,
        now + this.claimMs,
        this.perWebhook,
      );
      if (due.length === 0) return;
      for (const delivery of due) this.launch(delivery);
    }
  }

  /** Sends one delivery on its own; its end frees a slot, so the queue is looked at again. */
  private launch(delivery: DueDelivery): void {
    const sending = this.send(delivery)
      .catch((error: unknown) => this.options.log?.('a webhook delivery failed to run', error))
      .finally(() => {
        this.sending.delete(sending);
        this.kick();
      });
    this.sending.add(sending);
  }

  private async send(delivery: DueDelivery): Promise<void> {
    const { repository } = this.options;
    const started = Date.now();
    const timestamp = Math.floor(started / 1000);
    let statusCode: number | null = null;
    // Null once a 2xx answered; recorded after the attempt, so a store that fails to record
    // it is not mistaken for a receiver that failed to answer.
    let error: string | null;
    const attempt = new AbortController();
    this.attempts.add(attempt);
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(this.timeoutMs), attempt.signal]),
        headers: {
          'content-type': 'application/json',
          'user-agent': this.options.userAgent ?? 'RenderDesk-Webhooks',
          'render-desk-event': delivery.event,
          'render-desk-delivery': delivery.id,
          [SIGNATURE_HEADER.toLowerCase()]: signWebhook(
            delivery.secret,
            delivery.payload,
            timestamp,
          ),
        },
        body: delivery.payload,
      });
      statusCode = response.status;
      await response.body?.cancel().catch(() => undefined);
      error =
        response.status >= 200 && response.status < 300
          ? null
          : `answered ${response.status}${response.status >= 300 && response.status < 400 ? ' (redirects are not followed)' : ''}`;
    } catch (caught) {
      const cause = (caught as { cause?: { code?: string; message?: string } }).cause;
      const name = (caught as Error).name;
      error =
        name === 'TimeoutError'
          ? `no answer within ${this.timeoutMs / 1000} s`
          : name === 'AbortError' && this.cutOff
            ? `no answer within ${((Date.now() - started) / 1000).toFixed(1)} s, when the process sending it exited`
            : `could not connect (${cause?.code ?? cause?.message ?? (caught as Error).message})`;
    } finally {
      this.attempts.delete(attempt);
    }
    if (error === null && statusCode !== null) {
      await repository.delivered(delivery, statusCode);
      return;
    }
    const nextAttemptAt =
      delivery.attempts >= this.maxAttempts ? null : Date.now() + this.backoffMs(delivery.attempts);
    await repository.attemptFailed(delivery, {
      statusCode,
      error: error ?? 'no answer',
      nextAttemptAt,
    });
  }
}
