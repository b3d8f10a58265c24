// The statements of drafts and of the member gate of the caller's per-room things.
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

/** The account's draft of a live room it is a member of: undefined when it is none, null text when it has no draft. */
export async function draftOfMember(db: Runner, accountId: string, roomId: string) {
  return firstRow(
    db,
    chatDb
      .selectFrom('room_members as m')
      .innerJoin('rooms as r', (join) => join.onRef('r.id', '=', 'm.room_id').on('r.deleted_at', 'is', null))
      .leftJoin('drafts as d', (join) => join.onRef('d.account_id', '=', 'm.account_id').onRef('d.room_id', '=', 'm.room_id'))
      .select(['d.text', 'd.updated_at'])
      .where('m.room_id', '=', roomId)
      .where('m.account_id', '=', accountId),
  );
}

/** Locks the account's member row of a live room in the given mode; false when it is no member of one. */
export async function lockMember(
  client: SqlClient,
  accountId: string,
  roomId: string,
  mode: 'key share' | 'no key update',
): Promise<boolean> {
  const member = chatDb
    .selectFrom('room_members as m')
    .innerJoin('rooms as r', (join) => join.onRef('r.id', '=', 'm.room_id').on('r.deleted_at', 'is', null))
    .select('m.room_id')
    .where('m.room_id', '=', roomId)
    .where('m.account_id', '=', accountId);
  return (await affected(client, mode === 'key share' ? member.forKeyShare('m') : member.forNoKeyUpdate('m'))) > 0;
}

/** Writes the draft unless it already has this text; true when it was written. */
export async function upsertDraft(
  client: SqlClient,
  draft: { accountId: string; roomId: string; text: string; at: Date },
): Promise<boolean> {
  const written = await rows(
    client,
    chatDb
      .insertInto('drafts')
      .values({ account_id: draft.accountId, room_id: draft.roomId, text: draft.text, updated_at: draft.at })
      .onConflict((oc) =>
        oc
          .columns(['account_id', 'room_id'])
          .doUpdateSet((eb) => ({ text: eb.ref('excluded.text'), updated_at: eb.ref('excluded.updated_at') }))
          .whereRef('drafts.text', '<>', 'excluded.text'),
      )
      .returning('updated_at'),
  );
  return written.length > 0;
}

/** Deletes the account's draft of the room; true when there was one. */
export async function deleteDraft(client: SqlClient, accountId: string, roomId: string): Promise<boolean> {
  return (await affected(client, chatDb.deleteFrom('drafts').where('account_id', '=', accountId).where('room_id', '=', roomId))) > 0;
}

export const examples: QueryExamples = {
  draftOfMember: (db) => draftOfMember(db, example.id, example.otherId),
  lockMember: (db) => lockMember(db, example.id, example.otherId, 'no key update'),
  upsertDraft: (db) => upsertDraft(db, { accountId: example.id, roomId: example.otherId, text: example.text, at: example.at }),
  deleteDraft: (db) => deleteDraft(db, example.id, example.otherId),
};
