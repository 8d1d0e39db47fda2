/**
 * The keys of the query cache. Separate roots (not `['batches', id]` under `['batches']`), so
 * refreshing the list never refetches every batch opened before, and the other way round.
 */
export const queryKeys = {
  account: ['account'],
  batchList: ['batch-list'],
  batch: (id: string) => ['batch', id],
  webhooks: ['webhooks'],
  teamService: ['team-service'],
  /** The app's knock while the core is unreachable. */
  coreKnock: ['core-knock'],
} as const;
