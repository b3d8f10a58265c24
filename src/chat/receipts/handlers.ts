import { callerOf } from '../base/context.js';
import { ok, okList } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { ReceiptService } from './service.js';

export function receiptHandlers(
  receipts: ReceiptService,
): ChatFeatureHandlers<'listMessageReceipts' | 'getReceiptSettings' | 'setReceiptSettings'> {
  return {
    async listMessageReceipts({ params }, ctx) {
      return okList(ctx, await receipts.list(callerOf(ctx), params.roomId, params.messageId));
    },
    async getReceiptSettings(_request, ctx) {
      return ok(ctx, await receipts.settings(callerOf(ctx)));
    },
    async setReceiptSettings({ body }, ctx) {
      return ok(ctx, await receipts.setSettings(callerOf(ctx), body));
    },
  };
}
