// The file methods: sendDocument, sendPhoto, sendVideo, sendAnimation, sendAudio, sendVoice, sendVideoNote and
// getFile. A file becomes the attachment of an ordinary chat message, whose text is the caption; the kind of the
// method, and what the bot stated of the file, are kept on the attachment (file-views.ts shows them). Where a file
// comes from: file-sources.ts.
import type { MediaStore } from '../../../core/media/store.js';
import type { BotDeps } from '../deps.js';
import type { TelegramMessage } from '../telegram.js';
import { roomOfChat } from './chats.js';
import type { BotPrincipal } from './context.js';
import { botApiErrors } from './errors.js';
import { fileIdOf, filePathOf, fileUniqueIdOf } from './file-ids.js';
import { FileSources, fileNotFound, type StatedFacts } from './file-sources.js';
import type { FileKind } from './file-views.js';
import { visibleFile } from './file-visibility.js';
import type { BotMessages, SendInput } from './messages.js';
import { formattedText, type TelegramEntityInput } from './formatted-text.js';

export type { FileKind } from './file-views.js';

/** What a bot may state of a file, by method (Telegram's parameter names). */
export interface StatedParameters {
  duration?: number;
  width?: number;
  height?: number;
  length?: number;
  performer?: string;
  title?: string;
}

/** A caption as the file methods take it: markup (parse_mode) or explicit caption_entities. */
export interface CaptionInput {
  caption?: string;
  parse_mode?: string;
  caption_entities?: TelegramEntityInput[];
}

export type SendFileInput = Omit<SendInput, 'text' | 'formatting'> & CaptionInput & StatedParameters & Partial<Record<FileKind, string>>;

/** The caption as the message's text and formatting, or Telegram's 400 (formatted-text.ts). */
export const captionOf = (input: CaptionInput) => formattedText('caption', input.caption ?? '', input.parse_mode, input.caption_entities);

/** The parameters a method takes as facts of its file; the others are not the file's (a document has no duration). */
export function statedFacts(kind: FileKind, input: StatedParameters): StatedFacts {
  switch (kind) {
    case 'video':
    case 'animation':
      return { width: input.width, height: input.height, duration: input.duration };
    case 'audio':
      return { duration: input.duration, performer: input.performer, title: input.title };
    case 'voice':
      return { duration: input.duration };
    case 'video_note':
      return { width: input.length, height: input.length, duration: input.duration };
    default:
      return {};
  }
}

export class BotFiles {
  readonly sources: FileSources;

  constructor(
    private readonly deps: BotDeps,
    store: MediaStore,
    private readonly messages: BotMessages,
  ) {
    this.sources = new FileSources(deps, store);
  }

  async send(bot: BotPrincipal, kind: FileKind, input: SendFileInput, parts: Map<string, File>): Promise<TelegramMessage> {
    const named = input[kind];
    if (named === undefined) throw botApiErrors.badRequest(`there is no ${kind} in the request`);
    const message: SendInput = { ...input, ...captionOf(input) };
    // Cheap refusals first: nothing is fetched or stored for a chat the bot cannot write to.
    await roomOfChat(this.deps.sql, bot, input.chat_id);
    const file = await this.sources.prepare(bot, kind, named, parts, statedFacts(kind, input));
    try {
      return await this.messages.send(bot, message, async (client, messageId, now) => [await file.attach(client, messageId, now)]);
    } catch (err) {
      await file.discard();
      throw err;
    }
  }

  async getFile(
    bot: BotPrincipal,
    fileId: string,
  ): Promise<{ file_id: string; file_unique_id: string; file_size: number; file_path: string }> {
    const file = await visibleFile(this.deps.sql, bot, fileId);
    if (!file) throw fileNotFound();
    return { file_id: fileIdOf(file.id), file_unique_id: fileUniqueIdOf(file.id), file_size: file.size, file_path: filePathOf(file.id) };
  }
}
