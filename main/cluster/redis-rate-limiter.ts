import type { Redis } from 'ioredis';
import { AppError } from '../../shared/errors.js';
import type { RateLimitState } from '../server/rate-limiter.js';

/**
 * The per-key limit counted in Redis, so that every API node of a cluster counts against the
 * same window (DESIGN §4: 60 s, default 600 requests). A window starts at a key's first request
 * and ends with the counter's expiry, as in embedded mode. One round trip per request.
 */
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return { count, ttl }`;

export class RedisRateLimiter {
  constructor(
    private readonly redis: Redis,
    readonly limit: number,
    readonly windowMs = 60_000,
  ) {}

  async hit(id: string): Promise<RateLimitState> {
    let reply: [number, number];
    try {
      reply = (await this.redis.eval(HIT, 1, `render-desk:rate:${id}`, this.windowMs)) as [
        number,
        number,
      ];
    } catch {
      // Without the shared counter no node can tell whether the key is over its limit: refuse
      // (fail closed) rather than let a script through unlimited while Redis is away.
      throw new AppError(
        'service-busy',
        'The rate limiter is unavailable; retry in a few seconds.',
        {
          headers: { 'Retry-After': '2' },
        },
      );
    }
    const [count, ttl] = reply;
    return {
      allowed: count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - count),
      resetSeconds: Math.max(1, Math.ceil(ttl / 1000)),
    };
  }
}
