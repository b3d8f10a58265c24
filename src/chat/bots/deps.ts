// What the bot services need beyond the chat's own dependencies.
import type { ChatDeps } from '../base/deps.js';
import type { WebhookDeliveries } from './delivery/queue.js';
import type { UpdateWaiters } from './updates/waiters.js';
import type { WebhookPolicy } from './webhook-url.js';

export interface BotDeps extends ChatDeps {
  waiters: UpdateWaiters;
  deliveries: WebhookDeliveries;
  webhookPolicy: WebhookPolicy;
}
