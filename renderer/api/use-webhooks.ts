import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { api } from './client';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';
import type { Webhook, WebhookDelivery } from './types';

/** The delivery log changes as deliveries are sent and retried. */
const LOG_REFRESH_MS = 5000;

export interface Webhooks {
  hooks: Webhook[];
  log: WebhookDelivery[];
}

/** Settings → Webhooks: the receivers and the delivery log, fetched together while shown. */
export function useWebhooks(): UseQueryResult<Webhooks> {
  return useQuery({
    queryKey: queryKeys.webhooks,
    queryFn: async () => {
      const [list, deliveries] = await Promise.all([
        api.webhooks.list(),
        api.webhooks.deliveries(),
      ]);
      return { hooks: list.items, log: deliveries.items };
    },
    refetchInterval: LOG_REFRESH_MS,
  });
}

/** After adding or removing a receiver. */
export function refreshWebhooks(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: queryKeys.webhooks });
}
