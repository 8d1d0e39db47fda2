import type { CoreData } from '../data/core-data.js';
import type { WebhooksRepository } from '../store/webhooks-repository.js';
import { WebhookDispatcher, type WebhookDispatcherOptions } from './webhook-dispatcher.js';
import { withWebhookEvents } from './webhook-events.js';

/** A data folder's outgoing webhooks, as one process queues and sends them. */
export interface EmbeddedWebhooks {
  repository: WebhooksRepository;
  dispatcher: WebhookDispatcher;
  /** The data given, whose batch commands queue their events in `repository`. */
  data: CoreData;
}

/**
 * Outgoing webhooks of an embedded core (the app, and the command line on the same data folder):
 * the queue is the folder's SQLite (`options.repository`), a batch that ends or a row that fails
 * in `data` queues a delivery there, and the dispatcher is told at once. Not started: the caller
 * decides when it polls and how it stops.
 */
export function embeddedWebhooks(
  data: CoreData,
  options: WebhookDispatcherOptions,
): EmbeddedWebhooks {
  const { repository } = options;
  const dispatcher = new WebhookDispatcher(options);
  return {
    repository,
    dispatcher,
    data: withWebhookEvents(data, {
      enqueue: (event, key, payload) => repository.enqueue(event, key, payload),
      kick: () => dispatcher.kick(),
    }),
  };
}
