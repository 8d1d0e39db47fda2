import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, subscribeBatchEvents } from './client';
import { queryKeys } from './query-keys';
import type { Batch } from './types';
import { isLive } from './batch-live';
import { putInBatchList, rememberBatch } from './use-batch-list';

/** While the event stream is down, a live batch is fetched this often instead. */
const FALLBACK_POLL_MS = 2000;

export interface Pace {
  rowsPerSecond: number;
  secondsLeft: number | null;
}

/**
 * One batch as its screen shows it: fetched once, then followed over server-sent events while
 * it is live (each event also updates the batch list); polling takes over if the stream drops.
 */
export function useBatch(id: string): {
  /** Null until fetched since the screen opened: a remembered "running" may be long over. */
  batch: Batch | null;
  error: unknown;
  reload: () => void;
  pace: Pace;
} {
  const [streamDown, setStreamDown] = useState(false);
  const [pace, setPace] = useState<Pace>({ rowsPerSecond: 0, secondsLeft: null });
  const query = useQuery({
    queryKey: queryKeys.batch(id),
    queryFn: async () => {
      const batch = await api.batches.get(id);
      putInBatchList(batch);
      return batch;
    },
    refetchInterval: (q) =>
      streamDown && q.state.data && isLive(q.state.data) ? FALLBACK_POLL_MS : false,
  });
  const batch = query.isFetchedAfterMount ? (query.data ?? null) : null;
  const live = batch !== null && isLive(batch);

  useEffect(() => {
    if (!live) return;
    setStreamDown(false);
    return subscribeBatchEvents(id, {
      onProgress: (event) => {
        rememberBatch(event.batch);
        setPace({ rowsPerSecond: event.rowsPerSecond, secondsLeft: event.secondsLeft });
      },
      onEnd: rememberBatch,
      onError: () => setStreamDown(true),
    });
  }, [id, live]);

  return {
    batch,
    error: query.error,
    reload: () => void query.refetch(),
    pace,
  };
}
