import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { api } from './client';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';
import type { Batch } from './types';
import { isLive } from './batch-live';

/** Live batches refresh every second and a half; finished ones do not change. */
const LIVE_LIST_MS = 1500;

/**
 * How a screen uses the batch list: `follow` shows progress (fetched when the screen opens and
 * again while a batch in it is live); `once` needs names only (fetched if nobody has yet);
 * `cached` reads what others fetched and asks for nothing (the sidebar's count).
 */
export type BatchListUse = 'follow' | 'once' | 'cached';

export function useBatchList(use: BatchListUse): UseQueryResult<Batch[]> {
  return useQuery({
    queryKey: queryKeys.batchList,
    queryFn: () => api.batches.list(),
    enabled: use !== 'cached',
    staleTime: use === 'once' ? Infinity : 0,
    refetchInterval: (query) =>
      use === 'follow' && query.state.data?.some(isLive) ? LIVE_LIST_MS : false,
  });
}

/** A batch's new state (started, progressed, cancelled, replayed) in the list and its own entry. */
export function rememberBatch(batch: Batch): void {
  queryClient.setQueryData<Batch>(queryKeys.batch(batch.id), batch);
  putInBatchList(batch);
}

/** A batch's new state in the list only (its own query has just fetched it). */
export function putInBatchList(batch: Batch): void {
  queryClient.setQueryData<Batch[]>(queryKeys.batchList, (list) => {
    if (!list) return list;
    const index = list.findIndex((b) => b.id === batch.id);
    return index === -1 ? [batch, ...list] : list.map((b) => (b.id === batch.id ? batch : b));
  });
}

/** A deleted batch, gone from the list. */
export function forgetBatch(id: string): void {
  queryClient.removeQueries({ queryKey: queryKeys.batch(id) });
  queryClient.setQueryData<Batch[]>(queryKeys.batchList, (list) =>
    list?.filter((b) => b.id !== id),
  );
}

/** Fetches the list again where a screen shows it (the core came back after being away). */
export function refreshBatchList(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: queryKeys.batchList });
}
