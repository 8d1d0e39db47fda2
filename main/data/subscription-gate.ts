import { Errors } from '../../shared/errors.js';
import type { CoreData } from './core-data.js';

/**
 * Whether rendering may start: a lapsed subscription pauses every render (single, batch, preview
 * link) in every mode. One gate, asked by the API's auth step for routes that render, by the
 * command line and by preview links; the state lives behind the data port, so a cluster's nodes
 * agree.
 */
export class SubscriptionGate {
  /** `renewHint` says where this user renews (the app's Settings, or "then run the command again"). */
  constructor(
    private readonly subscription: CoreData['subscription'],
    private readonly renewHint?: string,
  ) {}

  async lapsed(): Promise<boolean> {
    return (await this.subscription.get()).status === 'lapsed';
  }

  /** Throws 403 subscription-lapsed while the subscription has lapsed. */
  async assertActive(): Promise<void> {
    if (await this.lapsed()) throw Errors.subscriptionLapsed(this.renewHint);
  }
}
