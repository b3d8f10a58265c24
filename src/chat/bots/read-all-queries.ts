// The statements of a bot's read-all switch in one room (bot_room_settings).
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

export async function isRoomMember(client: SqlClient, roomId: string, accountId: string): Promise<boolean> {
  const member = await firstRow(
    client,
    chatDb.selectFrom('room_members').select('room_id').where('room_id', '=', roomId).where('account_id', '=', accountId),
  );
  return member !== undefined;
}

/** The bot's switch in the room; false when it was never set. */
export async function readAllOf(client: SqlClient, botId: string, roomId: string): Promise<boolean> {
  const setting = await firstRow(
    client,
    chatDb.selectFrom('bot_room_settings').select('read_all').where('bot_id', '=', botId).where('room_id', '=', roomId),
  );
  return setting?.read_all ?? false;
}

export async function upsertReadAll(
  client: SqlClient,
  setting: { botId: string; roomId: string; readAll: boolean; at: Date },
): Promise<void> {
  await affected(
    client,
    chatDb
      .insertInto('bot_room_settings')
      .values({ bot_id: setting.botId, room_id: setting.roomId, read_all: setting.readAll, updated_at: setting.at })
      .onConflict((oc) =>
        oc
          .columns(['bot_id', 'room_id'])
          .doUpdateSet((eb) => ({ read_all: eb.ref('excluded.read_all'), updated_at: eb.ref('excluded.updated_at') })),
      ),
  );
}

export const examples: QueryExamples = {
  isRoomMember: (db) => isRoomMember(db, example.id, example.otherId),
  readAllOf: (db) => readAllOf(db, example.id, example.otherId),
  upsertReadAll: (db) => upsertReadAll(db, { botId: example.id, roomId: example.otherId, readAll: true, at: example.at }),
};
