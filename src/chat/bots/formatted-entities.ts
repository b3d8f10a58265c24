// A message's entities as the bot receives them: the commands and mentions found in the text (entities.ts) and the
// formatting the sender gave (base/formatting.ts), in text order. As in Telegram, nothing is found inside code.
import type { MentionedUser, StoredFormatting } from '../base/formatting.js';
import { entitiesOf, type Entity } from './entities.js';

export interface TelegramEntity {
  type: Entity['type'] | StoredFormatting['type'];
  offset: number;
  length: number;
  url?: string;
  user?: MentionedUser;
  language?: string;
}

const overlaps = (a: { offset: number; length: number }, b: { offset: number; length: number }) =>
  a.offset < b.offset + b.length && b.offset < a.offset + a.length;

export function telegramEntities(text: string, formatting: StoredFormatting[] | null): TelegramEntity[] {
  const found = entitiesOf(text);
  if (!formatting || formatting.length === 0) return found;
  const verbatim = formatting.filter((s) => s.type === 'code' || s.type === 'pre');
  const spans: TelegramEntity[] = formatting.map(({ accountId: _chats, ...span }) => span);
  const detected = found.filter((e) => !verbatim.some((v) => overlaps(e, v)));
  return [...detected, ...spans].sort((a, b) => a.offset - b.offset || b.length - a.length);
}
