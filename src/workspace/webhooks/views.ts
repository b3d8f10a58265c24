// The workspace API's (convention B) view of webhooks and deliveries.
import type { components } from '../../../generated/types/workspace.js';
import type { DeliveryRow, WebhookRow } from '../../core/webhooks/rows.js';
import type { SendSummary } from '../../core/webhooks/service.js';
import { deliveryFields, sendResultFields, webhookFields } from '../../core/webhooks/views.js';

type Schemas = components['schemas'];

export function webhookView(row: WebhookRow): Schemas['Webhooks.Webhook'] {
  return {
    ...webhookFields<Schemas['Webhooks.WebhookEvent'], Schemas['Webhooks.WebhookEnvironment']>(row),
    status: row.status,
  };
}

export function sendResultView(s: SendSummary): Schemas['Webhooks.SendResult'] {
  return sendResultFields(s);
}

export function deliveryView(row: DeliveryRow): Schemas['Webhooks.Delivery'] {
  return deliveryFields(row);
}
