import type { BreakerMemory } from '../data-commands.js';

/** A batch no row of which has been committed yet (or one just replayed). */
export const EMPTY_BREAKER_MEMORY: BreakerMemory = { recent: '', consecutiveFailures: 0 };

/** How many of the outcomes ('1'/'0', oldest first) failed at the end, in a row. */
export function trailingFailures(finished: string): number {
  return finished.length - finished.replace(/0+$/, '').length;
}

/** The memory after `finished`: the last `window` outcomes, and the run of failures. */
export function rememberOutcomes(
  memory: BreakerMemory,
  finished: string,
  window: number,
): BreakerMemory {
  return {
    recent: (memory.recent + finished).slice(-window),
    consecutiveFailures: finished.includes('1')
      ? trailingFailures(finished)
      : memory.consecutiveFailures + finished.length,
  };
}
