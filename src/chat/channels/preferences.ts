// The caller's own sidebar pin of a channel: only its member row changes, and a call that changes nothing emits nothing.
import { inTransaction } from '../../platform/db/sql.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { channelNotFound } from '../base/channel-access.js';
import { accountsAudience, emit } from '../events/emit.js';
import { lockPin, writePin } from './queries.js';

export async function changeChannelPin(deps: ChatDeps, caller: Caller, channelId: string, input: { pinned?: boolean }): Promise<void> {
  await inTransaction(deps.sql, async (client) => {
    const current = await lockPin(client, channelId, caller.accountId);
    if (!current) throw channelNotFound();
    if (input.pinned === undefined || input.pinned === current.pinned) return;
    await writePin(client, channelId, caller.accountId, input.pinned);
    await emit(
      client,
      'channel.preferences_changed',
      { channelId, accountId: caller.accountId, pinned: input.pinned },
      accountsAudience([caller.accountId]),
    );
  });
}
