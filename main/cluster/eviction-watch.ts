import type { Redis } from 'ioredis';
import { evictionPolicy } from './redis-connection.js';

/** How often a running node asks Redis for its eviction policy (RENDER_DESK_EVICTION_CHECK_MS). */
export function evictionCheckMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.RENDER_DESK_EVICTION_CHECK_MS);
  return Number.isFinite(value) && value >= 200 ? value : 30_000;
}

/**
 * Nodes refuse to start on a Redis that may evict keys; this keeps checking while they run,
 * since `CONFIG SET` (or a managed service's console) can change the policy at any time. While
 * the policy is unsafe the node says so on /healthz (503), in its log, and its worker takes no
 * new chunk jobs; the leader's reconciliation re-queues any job Redis dropped meanwhile.
 */
export class EvictionWatch {
  private problem: string | null = null;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly options: {
      intervalMs: number;
      log: (message: string) => void;
      onUnsafe?: () => Promise<void> | void;
      onSafe?: () => Promise<void> | void;
    },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.check(), this.options.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Why this node should not be trusted with work now, or null. */
  current(): string | null {
    return this.problem;
  }

  async check(): Promise<void> {
    let policy: string | undefined;
    try {
      policy = await evictionPolicy(this.redis);
    } catch {
      return; // Redis unreachable: BullMQ reconnects; nothing to say about the policy.
    }
    if (policy === 'noeviction') {
      if (this.problem !== null) {
        this.problem = null;
        this.options.log('Redis is back on maxmemory-policy noeviction; taking chunk jobs again');
        await this.options.onSafe?.();
      }
      return;
    }
    const problem = `Redis runs with maxmemory-policy ${policy ?? 'unknown'}; it must be noeviction (CONFIG SET maxmemory-policy noeviction)`;
    this.options.log(`${problem}. This node takes no chunk jobs until it is.`);
    if (this.problem === null) {
      this.problem = problem;
      await this.options.onUnsafe?.();
    }
  }
}
