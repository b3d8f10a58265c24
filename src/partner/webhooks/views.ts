// The partner API's (convention A) view of the webhooks the workspace API also serves: object fields, lower-case
// statuses, list envelopes.
import type { components } from '../../../generated/types/partner.js';
import type { DeliveryRow, WebhookRow } from '../../core/webhooks/rows.js';
import type { SendSummary } from '../../core/webhooks/service.js';
import { deliveryFields, sendResultFields, webhookFields } from '../../core/webhooks/views.js';

type Schemas = components['schemas'];

export function endpointView(row: WebhookRow): Schemas['Webhooks.WebhookEndpoint'] {
  return {
    object: 'webhook_endpoint',
    ...webhookFields<Schemas['Webhooks.WebhookEvent'], Schemas['Webhooks.WebhookEnvironment']>(row),
    status: row.status.toLowerCase() as Schemas['Webhooks.WebhookStatus'],
  };
}

export function sendResultView(s: SendSummary): Schemas['Webhooks.WebhookSendResult'] {
  return { object: 'webhook_send_result', ...sendResultFields(s) };
}

export function deliveryView(row: DeliveryRow): Schemas['Webhooks.WebhookDelivery'] {
  return { object: 'webhook_delivery', ...deliveryFields(row) };
}
