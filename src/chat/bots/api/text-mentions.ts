// The formatting a bot's message keeps: each text_mention names a Telegram user id, which becomes the member of the
// room with that id (chat clients see the account, the bot sees the user as it was named). A mention of anyone
// else stays plain text, so a bot learns nothing of accounts outside the room.
import { sql } from 'kysely';
import { rows, type Runner } from '../../../platform/db/typed.js';
import type { StoredFormatting } from '../../base/formatting.js';
import { chatDb } from '../../base/tables.js';
import type { FormattingEntity } from '../formatting/index.js';
import { telegramUser } from '../telegram.js';

const membersById = (roomId: string, ids: number[]) =>
  chatDb
    .selectFrom('room_members as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .leftJoin('bots as b', (join) => join.onRef('b.account_id', '=', 'a.id').on('b.deleted_at', 'is', null))
    .select(['a.id', 'a.bot_api_id', 'a.display_name', 'a.account_type', 'b.username'])
    .where('m.room_id', '=', roomId)
    .where(sql<boolean>`a.bot_api_id = any(${ids}::bigint[])`);

function stored(span: FormattingEntity): StoredFormatting {
  const { userId: _named, ...rest } = span;
  return rest;
}

/** The spans to store on a message of the room, or null when none remain. */
export async function storedFormatting(db: Runner, roomId: string, spans: FormattingEntity[] | null): Promise<StoredFormatting[] | null> {
  if (!spans || spans.length === 0) return null;
  const named = [...new Set(spans.flatMap((s) => (s.type === 'text_mention' && s.userId !== undefined ? [s.userId] : [])))];
  if (named.length === 0) return spans.map(stored);
  const members = new Map((await rows(db, membersById(roomId, named))).map((m) => [Number(m.bot_api_id), m]));
  const kept: StoredFormatting[] = [];
  for (const span of spans) {
    if (span.type !== 'text_mention') {
      kept.push(stored(span));
      continue;
    }
    const member = members.get(span.userId ?? 0);
    if (!member) continue;
    const user = telegramUser(member.bot_api_id, member.display_name, member.account_type, member.username);
    kept.push({ ...stored(span), accountId: member.id, user });
  }
  return kept.length > 0 ? kept : null;
}

/** Stored spans as a new send takes them (a copy): its mentions are looked up again in the copy's room. */
export function spansOf(formatting: StoredFormatting[] | null): FormattingEntity[] | null {
  if (!formatting || formatting.length === 0) return null;
  return formatting.map(({ accountId: _account, user, ...span }) => (user ? { ...span, userId: user.id } : span));
}
