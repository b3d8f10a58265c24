// The webhook operations both APIs serve (the workspace API's /api/v1/webhooks and the partner API's /webhooks and
// /webhook-deliveries): one set of webhooks per workspace and environment, whichever key created them. Errors are
// made by the calling API (its envelope and codes); attempts to put on the queue are returned to the caller, which
// enqueues them once its transaction has committed. Each group of operations lives beside this file; this class is
// the one door the APIs use.
import type { WebhookEngine } from './engine.js';
import type { WebhookErrorFactory } from './input-checks.js';
import { WebhookDeliveries } from './delivery-operations.js';
import { WebhookRegistry } from './registry.js';
import { WebhookStates } from './states.js';

export type { WebhookErrorFactory, WebhookInput } from './input-checks.js';
export type { Page } from './pages.js';
export type { Scheduled } from './partition.js';
export { maxWebhooksPerPartition, type WebhookActor } from './registry.js';
export type { SendSummary } from './send-now.js';

export class WebhookService {
  private readonly registry: WebhookRegistry;
  private readonly states: WebhookStates;
  private readonly log: WebhookDeliveries;

  constructor(engine: WebhookEngine, errors: WebhookErrorFactory) {
    this.registry = new WebhookRegistry(engine, errors);
    this.states = new WebhookStates(engine, errors);
    this.log = new WebhookDeliveries(engine, errors);
  }

  create(...args: Parameters<WebhookRegistry['create']>) {
    return this.registry.create(...args);
  }

  list(...args: Parameters<WebhookRegistry['list']>) {
    return this.registry.list(...args);
  }

  /** The partition of one webhook of the workspace, whatever its environment (people see every environment). */
  partitionOf(...args: Parameters<WebhookRegistry['partitionOf']>) {
    return this.registry.partitionOf(...args);
  }

  get(...args: Parameters<WebhookRegistry['get']>) {
    return this.registry.get(...args);
  }

  update(...args: Parameters<WebhookRegistry['update']>) {
    return this.registry.update(...args);
  }

  delete(...args: Parameters<WebhookRegistry['delete']>) {
    return this.registry.delete(...args);
  }

  pause(...args: Parameters<WebhookStates['pause']>) {
    return this.states.pause(...args);
  }

  resume(...args: Parameters<WebhookStates['resume']>) {
    return this.states.resume(...args);
  }

  disable(...args: Parameters<WebhookStates['disable']>) {
    return this.states.disable(...args);
  }

  test(...args: Parameters<WebhookStates['test']>) {
    return this.states.test(...args);
  }

  deliveries(...args: Parameters<WebhookDeliveries['deliveries']>) {
    return this.log.deliveries(...args);
  }

  delivery(...args: Parameters<WebhookDeliveries['delivery']>) {
    return this.log.delivery(...args);
  }

  resend(...args: Parameters<WebhookDeliveries['resend']>) {
    return this.log.resend(...args);
  }

  replay(...args: Parameters<WebhookDeliveries['replay']>) {
    return this.log.replay(...args);
  }
}
