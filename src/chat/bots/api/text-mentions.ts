// The formatting a bot's message keeps: each text_mention names a Telegram user id, which becomes the member of the
// room with that id (chat clients see the account, the bot sees the user as it was named). A mention of anyone
// else stays plain text, so a bot learns nothing of accounts outside the room.
import type { Runner } from '../../../platform/db/typed.js';
import type { StoredFormatting } from '../../base/formatting.js';
import type { FormattingEntity } from '../formatting/index.js';
import { telegramUser } from '../telegram.js';
import { membersByUserId } from './member-queries.js';

function stored(span: FormattingEntity): StoredFormatting {
  const { userId: _named, ...rest } = span;
  return rest;
}

/** The spans to store on a message of the room, or null when none remain. */
export async function storedFormatting(db: Runner, roomId: string, spans: FormattingEntity[] | null): Promise<StoredFormatting[] | null> {
  if (!spans || spans.length === 0) return null;
  const named = [...new Set(spans.flatMap((s) => (s.type === 'text_mention' && s.userId !== undefined ? [s.userId] : [])))];
  if (named.length === 0) return spans.map(stored);
  const members = new Map((await membersByUserId(db, roomId, named)).map((m) => [Number(m.bot_api_id), m]));
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
