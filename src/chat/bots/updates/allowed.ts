// Which kinds of update a bot takes, as Telegram decides it: a bot that never set allowed_updates (or set an empty
// list) gets every kind except chat_member and message_reaction, which it must list to receive them.
import type { UpdateKind } from '../rows.js';

const onlyWhenListed: ReadonlySet<UpdateKind> = new Set(['chat_member', 'message_reaction']);

export function allows(allowed: string[] | null, kind: UpdateKind): boolean {
  if (allowed === null || allowed.length === 0) return !onlyWhenListed.has(kind);
  return allowed.includes(kind);
}
