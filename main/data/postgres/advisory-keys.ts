/**
 * Keys of the session-wide advisory locks Render Desk takes. PostgreSQL shares one key space
 * between every application on a database, so they sit in a range of their own ("RD" + n).
 */
export const ADVISORY_KEYS = {
  /** Held while migrations run: nodes starting together apply each step once. */
  migrations: 0x5244_0001,
  /** The cluster leader: reconciles chunks, finalises batches, collects garbage. */
  leader: 0x5244_0002,
  /** Held (per transaction) by every write to the shared workspace: change numbers commit in order. */
  workspace: 0x5244_0003,
} as const;
