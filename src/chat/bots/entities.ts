// Commands and mentions in a message's text, as Telegram marks them: libraries match commands on a bot_command
// entity at offset 0 (grammY's and Telegraf's command()), and offsets count UTF-16 code units, as JS strings do.
export interface Entity {
  type: 'bot_command' | 'mention';
  offset: number;
  length: number;
}

const command = /(?<![^\s])\/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?(?![A-Za-z0-9_@])/g;
const mention = /(?<![A-Za-z0-9_/@])@[A-Za-z0-9_]{5,32}(?![A-Za-z0-9_])/g;

export function entitiesOf(text: string): Entity[] {
  const found: Entity[] = [];
  for (const m of text.matchAll(command)) found.push({ type: 'bot_command', offset: m.index, length: m[0].length });
  for (const m of text.matchAll(mention)) found.push({ type: 'mention', offset: m.index, length: m[0].length });
  return found.sort((a, b) => a.offset - b.offset);
}

/** The command a message starts with, and the bot it names (lower case), if any. */
export function leadingCommand(text: string): { name: string; to: string | null } | null {
  const m = /^\/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]{3,32}))?(?![A-Za-z0-9_@])/.exec(text);
  return m ? { name: m[1]!, to: m[2]?.toLowerCase() ?? null } : null;
}

/** The usernames mentioned (lower case). */
export function mentionedUsernames(text: string): Set<string> {
  return new Set([...text.matchAll(mention)].map((m) => m[0].slice(1).toLowerCase()));
}
