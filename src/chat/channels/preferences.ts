// The caller's own sidebar pin of a channel: only its member row changes, and a call that changes nothing emits nothing.
import { inTransaction } from '../../platform/db/sql.js';
import { affected, firstRow } from '../../platform/db/typed.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { channelNotFound } from '../base/channel-access.js';
import { chatDb } from '../base/tables.js';
import { accountsAudience, emit } from '../events/emit.js';

export async function changeChannelPin(deps: ChatDeps, caller: Caller, channelId: string, input: { pinned?: boolean }): Promise<void> {
  await inTransaction(deps.sql, async (client) => {
    const current = await firstRow(
      client,
      chatDb
        .selectFrom('channel_members as m')
        .innerJoin('channels as c', (join) => join.onRef('c.id', '=', 'm.channel_id').on('c.deleted_at', 'is', null))
        .select('m.pinned')
        .where('m.channel_id', '=', channelId)
        .where('m.account_id', '=', caller.accountId)
        .forUpdate('m'),
    );
    if (!current) throw channelNotFound();
    if (input.pinned === undefined || input.pinned === current.pinned) return false;
    await affected(
      client,
      chatDb
        .updateTable('channel_members')
        .set({ pinned: input.pinned })
        .where('channel_id', '=', channelId)
        .where('account_id', '=', caller.accountId),
    );
    await emit(
      client,
      'channel.preferences_changed',
      { channelId, accountId: caller.accountId, pinned: input.pinned },
      accountsAudience([caller.accountId]),
    );
    return true;
  });
}
