// Read-all in one room: the caller manages the bot and is an owner or admin of the room (room members are told by
// the bot.read_all_changed event); the bot must be a member. PRIVATE rooms need no switch: there the bot reads
// every message. Setting the current value again changes nothing.
import { inTransaction } from '../../platform/db/sql.js';
import type { Caller } from '../base/context.js';
import { membershipOf, refuseFixedType, requireManager } from '../base/membership.js';
import { emit, roomAudience } from '../events/emit.js';
import { managedBot } from './access.js';
import type { BotDeps } from './deps.js';
import { botErrors } from './errors.js';
import { isRoomMember, readAllOf, upsertReadAll } from './read-all-queries.js';

export async function setRoomReadAll(
  deps: BotDeps,
  caller: Caller,
  botId: string,
  roomId: string,
  readAll: boolean,
): Promise<{ botId: string; roomId: string; readAll: boolean }> {
  const bot = await managedBot(deps.sql, caller, botId);
  await inTransaction(deps.sql, async (client) => {
    const membership = await membershipOf(client, caller, roomId, true);
    refuseFixedType(membership, 'switch a bot to read every message (a bot reads every message of a private room)');
    requireManager(membership, "switch a bot's read-all");
    if (!(await isRoomMember(client, roomId, bot.account_id))) throw botErrors.notInRoom();
    if ((await readAllOf(client, botId, roomId)) === readAll) return;
    await upsertReadAll(client, { botId, roomId, readAll, at: deps.clock.now() });
    await emit(
      client,
      'bot.read_all_changed',
      { botId, botAccountId: bot.account_id, roomId, readAll, changedBy: caller.accountId },
      roomAudience(roomId),
    );
  });
  return { botId, roomId, readAll };
}
