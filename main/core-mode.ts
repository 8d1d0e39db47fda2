import type { BatchEvents } from './batch/batch-events.js';
import type { ClusterParts } from './core/core-parts.js';
import type { CoreData } from './data/core-data.js';
import type { RequestLimiter } from './server/plugins/auth.js';
import type { SharedUiSessions } from './server/ui-sessions.js';

/**
 * What an API node of a cluster uses instead of the embedded parts: PostgreSQL for the data and
 * the cluster's shared parts for the services (`ClusterParts`: the shared store, chunk jobs, the
 * shared workspace), then for its HTTP side Redis for rate limits, PostgreSQL notifications for
 * progress, and the address and names it answers on.
 */
export interface ClusterApiParts extends ClusterParts {
  data: CoreData;
  limiter: RequestLimiter;
  host: string;
  allowedHosts: readonly string[];
  /** Why this node should not get traffic now (GET /healthz answers 503 with it), or null. */
  healthProblem: () => string | null;
  /** UI sessions every API node honours (launch links and sessions signed with one key). */
  sessions: SharedUiSessions;
  /** Starts pushing other nodes' progress into this node's events; returns a stop function. */
  progress: (events: BatchEvents) => Promise<() => Promise<void>>;
}
