// The room list's statements. The page's statement is compiled once per shape: the filters a request uses pick one of a bounded set of texts
// (each a named prepared statement), and each request only binds its values. Building and compiling the typed
// statement costs about 140 µs of CPU, a share of the page's time worth keeping off every request.
import { sql, type InferResult } from 'kysely';
import { fixedStatement, slot, type FixedStatement } from '../../platform/db/fixed-statement.js';
import { hotRows, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import type { RoomRole } from '../base/room-views.js';
import { chatDb } from '../base/tables.js';
import { roomQuery } from './room-queries.js';

/** Which optional filters a page uses. */
export interface RoomListShape {
  search: boolean;
  standalone: boolean;
  channel: boolean;
  label: boolean;
  cursor: boolean;
}

/** A page's values; those of filters the shape leaves out are ignored. */
export interface RoomListValues extends Record<string, unknown> {
  account: string;
  archived: boolean;
  search?: string;
  channel?: string;
  label?: string;
  pinned?: boolean;
  at?: string;
  id?: string;
  limit: number;
}

const valueOrder = ['account', 'archived', 'search', 'channel', 'label', 'pinned', 'at', 'id', 'limit'] as const;

function build(shape: RoomListShape) {
  const account = slot<string>('account');
  return roomQuery(account, (scope) =>
    scope
      .where('m.archived', '=', slot<boolean>('archived'))
      .$if(shape.search, (q) =>
        q.where('r.type', 'in', [sql.lit('GROUP'), sql.lit('CHANNEL')]).where('r.name', 'ilike', slot<string>('search')),
      )
      .$if(shape.standalone, (q) => q.where('r.channel_id', 'is', null))
      .$if(shape.channel, (q) => q.where('r.channel_id', '=', slot<string>('channel')))
      // The caller's own label only: anyone else's id matches no room (src/chat/labels).
      .$if(shape.label, (q) =>
        q.where(({ exists, selectFrom }) =>
          exists(
            selectFrom('room_labels as rl')
              .select(sql<number>`1`.as('one'))
              .where('rl.label_id', '=', slot<string>('label'))
              .whereRef('rl.room_id', '=', 'r.id')
              .where('rl.account_id', '=', account),
          ),
        ),
      )
      .$if(shape.cursor, (q) =>
        q.where((eb) =>
          eb(
            eb.refTuple('m.pinned', 'r.last_activity_at', 'r.id'),
            '<',
            eb.tuple(
              sql<boolean>`${slot('pinned')}::boolean`,
              sql<Date>`${slot<string>('at')}::timestamptz`,
              sql<string>`${slot('id')}::uuid`,
            ),
          ),
        ),
      )
      .orderBy('m.pinned', 'desc')
      .orderBy('r.last_activity_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(slot<number>('limit')),
  )
    .orderBy('p.pinned', 'desc')
    .orderBy('p.last_activity_at', 'desc')
    .orderBy('p.id', 'desc');
}

export type RoomListRow = InferResult<ReturnType<typeof build>>[number];

const shapes = new Map<string, FixedStatement<RoomListRow, RoomListValues>>();

/** The statement of this shape, compiled on first use. */
function roomListStatement(shape: RoomListShape): FixedStatement<RoomListRow, RoomListValues> {
  const key = `${+shape.search}${+shape.standalone}${+shape.channel}${+shape.label}${+shape.cursor}`;
  let statement = shapes.get(key);
  if (!statement) {
    const used = valueOrder.filter(
      (name) =>
        (name !== 'search' || shape.search) &&
        (name !== 'channel' || shape.channel) &&
        (name !== 'label' || shape.label) &&
        ((name !== 'pinned' && name !== 'at' && name !== 'id') || shape.cursor),
    );
    statement = fixedStatement<RoomListRow, RoomListValues>(build(shape), used);
    shapes.set(key, statement);
  }
  return statement;
}

/** One page of the caller's rooms: a named prepared statement per shape, the request binding its values only. */
export async function roomListPage(db: Runner, shape: RoomListShape, values: RoomListValues): Promise<RoomListRow[]> {
  return hotRows(db, roomListStatement(shape).bind(values));
}

/** The members of the rooms, in joining order. */
export async function membersOfRooms(db: Runner, roomIds: string[]) {
  return rows(
    db,
    chatDb
      .selectFrom('room_members')
      .select(['room_id', 'account_id', 'role', 'joined_at'])
      .where('room_id', '=', sql<string>`any(${roomIds}::uuid[])`)
      .orderBy('joined_at')
      .orderBy('account_id')
      .$narrowType<{ role: RoomRole }>(),
  );
}

export const examples: QueryExamples = {
  roomListPage: (db) =>
    roomListPage(
      db,
      { search: true, standalone: true, channel: true, label: true, cursor: true },
      {
        account: example.id,
        archived: true,
        search: '%text%',
        channel: example.otherId,
        label: example.otherId,
        pinned: true,
        at: example.at.toISOString(),
        id: example.otherId,
        limit: 51,
      },
    ),
  membersOfRooms: (db) => membersOfRooms(db, [example.id, example.otherId]),
};
