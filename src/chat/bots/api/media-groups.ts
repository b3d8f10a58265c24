// sendMediaGroup: 2 to 10 files as one album, one message per file in the order given, sharing a media_group_id
// (kept on each message's attachment). As in Telegram, photos and videos may mix, while documents and audios each
// form albums of their own kind. Every file is checked (and an arriving one stored) before the first message is
// written, so bad input sends nothing and stores nothing; what was stored for messages that were not sent is removed.
import { newId } from '../../../platform/ids.js';
import type { BotDeps } from '../deps.js';
import type { TelegramMessage } from '../telegram.js';
import type { ChatRef } from './chats.js';
import { roomOfChat } from './chats.js';
import type { BotPrincipal } from './context.js';
import { botApiErrors } from './errors.js';
import type { PreparedFile } from './file-sources.js';
import { captionOf, statedFacts, type BotFiles, type CaptionInput, type StatedParameters } from './files.js';
import type { BotMessages } from './messages.js';

export interface InputMedia extends StatedParameters, CaptionInput {
  type: 'photo' | 'video' | 'document' | 'audio';
  media: string;
}

export interface MediaGroupInput {
  chat_id: ChatRef;
  media: InputMedia[];
  message_thread_id?: number;
  reply_to_message_id?: number;
  reply_parameters?: { message_id: number };
}

/** Telegram's refusal of an album that mixes what may not be mixed, or undefined when it may be sent. */
function mixRefusal(media: InputMedia[]): string | undefined {
  const types = new Set(media.map((m) => m.type));
  if (types.size === 1) return undefined;
  for (const alone of ['document', 'audio'] as const) if (types.has(alone)) return `${alone} can't be mixed with other media types`;
  return undefined;
}

async function prepareAll(files: BotFiles, bot: BotPrincipal, input: MediaGroupInput, parts: Map<string, File>, group: string) {
  const prepared: PreparedFile[] = [];
  try {
    for (const item of input.media) {
      const facts = { ...statedFacts(item.type, item), mediaGroupId: group };
      prepared.push(await files.sources.prepare(bot, item.type, item.media, parts, facts));
    }
  } catch (err) {
    await Promise.all(prepared.map((file) => file.discard()));
    throw err;
  }
  return prepared;
}

export async function sendMediaGroup(
  deps: BotDeps,
  files: BotFiles,
  messages: BotMessages,
  bot: BotPrincipal,
  input: MediaGroupInput,
  parts: Map<string, File>,
): Promise<TelegramMessage[]> {
  const mixed = mixRefusal(input.media);
  if (mixed) throw botApiErrors.badRequest(mixed);
  // Every caption is checked before anything is fetched or stored.
  const captions = input.media.map(captionOf);
  await roomOfChat(deps.sql, bot, input.chat_id);
  // The album counts as its messages, all before any file is fetched: a refused album writes nothing.
  await messages.countSends(bot, input.media.length);
  const group = newId();
  const prepared = await prepareAll(files, bot, input, parts, group);
  const { message_thread_id, reply_to_message_id, reply_parameters } = input;
  const reply = { message_thread_id, reply_to_message_id, reply_parameters };
  const sent: TelegramMessage[] = [];
  try {
    for (const [i, file] of prepared.entries()) {
      const message = { chat_id: input.chat_id, ...captions[i]!, ...reply };
      sent.push(await messages.send(bot, message, async (client, messageId, now) => [await file.attach(client, messageId, now)], true));
    }
  } catch (err) {
    await Promise.all(prepared.slice(sent.length).map((file) => file.discard()));
    throw err;
  }
  return sent;
}
