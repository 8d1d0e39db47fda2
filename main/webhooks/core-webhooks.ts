import type { CoreData } from '../data/core-data.js';
import { WebhookDispatcher, type WebhookDispatcherOptions } from './webhook-dispatcher.js';
import { withWebhookEvents } from './webhook-events.js';

/** A core's outgoing webhooks: the data that queues their events, and what sends them. */
export interface CoreWebhooks {
  /** The data given, whose batch commands queue their events in `data.webhooks`. */
  data: CoreData;
  dispatcher: WebhookDispatcher;
}

/**
 * Outgoing webhooks in every mode: the queue is the data's own store (`data.webhooks`: the data
 * folder's SQLite, or the cluster's PostgreSQL), a batch that ends or a row that fails in `data`
 * queues a delivery there, and this process's dispatcher is told at once. Not started: the
 * caller decides when it polls and how it stops. In a cluster every node runs one; each
 * delivery is claimed by one of them.
 */
export function coreWebhooks(
  data: CoreData,
  options: Omit<WebhookDispatcherOptions, 'repository'> = {},
): CoreWebhooks {
  const dispatcher = new WebhookDispatcher({ ...options, repository: data.webhooks });
  return {
    dispatcher,
    data: withWebhookEvents(data, {
      enqueue: (event, key, payload) => data.webhooks.enqueue(event, key, payload),
      kick: () => dispatcher.kick(),
    }),
  };
}
