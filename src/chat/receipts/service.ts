// Read receipts: who has read a message, from the members' read marks, and each account's choice to share its own.
// Not sharing works both ways: the account is left out of others' receipts and read counts, and sees none itself.
import { inTransaction } from '../../platform/db/sql.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { roomNotFound } from '../base/membership.js';
import { receiptSetting, receiptsOf, writeReceiptSetting } from './queries.js';

export interface ReadReceipt {
  accountId: string;
  readAt: string;
}

export interface ReceiptSettings {
  shareReadReceipts: boolean;
}

export class ReceiptService {
  constructor(private readonly deps: ChatDeps) {}

  /** A non-member gets the 404 of an unknown room; an unknown message of the room 404 message_not_found. */
  async list(caller: Caller, roomId: string, messageId: string): Promise<ReadReceipt[]> {
    const found = await receiptsOf(this.deps.sql, caller.accountId, roomId, messageId);
    const target = found[0];
    if (!target?.member) throw roomNotFound();
    if (target.seq === null || target.sender_id === null) throw chatErrors.notFound('Message', 'message_not_found');
    return found.flatMap((r) =>
      r.account_id && r.last_read_at ? [{ accountId: r.account_id, readAt: r.last_read_at.toISOString() }] : [],
    );
  }

  async settings(caller: Caller): Promise<ReceiptSettings> {
    const row = await receiptSetting(this.deps.sql, caller.accountId);
    return { shareReadReceipts: row?.share ?? true };
  }

  async setSettings(caller: Caller, input: ReceiptSettings): Promise<ReceiptSettings> {
    await inTransaction(this.deps.sql, (client) =>
      writeReceiptSetting(client, caller.accountId, input.shareReadReceipts, this.deps.clock.now()),
    );
    return this.settings(caller);
  }
}
