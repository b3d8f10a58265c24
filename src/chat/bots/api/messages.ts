// sendMessage, the edits (edits.ts) and deleteMessage: the bot writes into rooms it is a member of, through
// the chat's own statements (the room's sequence, the thread counters, the outbox events), so its messages are
// ordinary chat messages. Telegram's message_id is the room sequence number; a reply (reply_to_message_id,
// reply_parameters or message_thread_id) is a thread reply, as threads are the chat's replies.
import { inTransaction, type SqlClient } from '../../../platform/db/sql.js';
import { AppError } from '../../../platform/http/app-error.js';
import { newId } from '../../../platform/ids.js';
import type { Caller } from '../../base/context.js';
import { MessageLifecycleService } from '../../messages/lifecycle.js';
import type { BotDeps } from '../deps.js';
import { loadBotMessages, telegramMessage, type BotAttachment, type TelegramMessage } from '../telegram.js';
import { roomOfChat, type ChatRef } from './chats.js';
import type { BotPrincipal } from './context.js';
import { editBotMessage, type EditedContent, type EditTarget } from './edits.js';
import { botApiErrors } from './errors.js';
import { bumpForReply, insertReply, messageBySeq, replyTarget, sendPlain, setMessageExtras } from './message-queries.js';
import { markupOf, storeMarkup } from './reply-markup-store.js';
import type { BotSendLimit } from './send-limit.js';
import { storedFormatting } from './text-mentions.js';
import type { FormattingEntity } from '../formatting/index.js';

export interface SendInput {
  chat_id: ChatRef;
  text: string;
  message_thread_id?: number;
  reply_to_message_id?: number;
  reply_parameters?: { message_id: number };
  reply_markup?: unknown;
  /** The text's formatting (formatted-text.ts), when it has any. */
  formatting?: FormattingEntity[] | null;
}

/** The files a send carries, found (or claimed) inside the send's transaction once the message id exists. */
export type AttachFiles = (client: SqlClient, messageId: string, now: Date) => Promise<BotAttachment[]>;

export interface DeleteInput {
  chat_id: ChatRef;
  message_id: number;
}

/** The bot as a chat caller, for the chat services it shares (recall). */
export const callerOfBot = (bot: BotPrincipal): Caller => ({
  accountId: bot.accountId,
  moduleCode: bot.moduleCode,
  customerAccountId: bot.customerAccountId,
  platformAdmin: false,
});

export class BotMessages {
  private readonly lifecycle: MessageLifecycleService;

  constructor(
    private readonly deps: BotDeps,
    private readonly limit: BotSendLimit,
  ) {
    this.lifecycle = new MessageLifecycleService(deps);
  }

  private async view(messageId: string): Promise<TelegramMessage> {
    const row = (await loadBotMessages(this.deps.sql, [messageId])).get(messageId);
    if (!row) throw new Error(`message ${messageId} vanished after its write`);
    return telegramMessage(row);
  }

  /** Counts `messages` sends of one request against the bot's limit at once (an album: all or none). */
  async countSends(bot: BotPrincipal, messages: number): Promise<void> {
    await this.limit.check(bot.id, messages);
  }

  /** One message; `counted` when the request already counted it (countSends). */
  async send(bot: BotPrincipal, input: SendInput, attach?: AttachFiles, counted = false): Promise<TelegramMessage> {
    const markup = markupOf(input.reply_markup);
    if (!counted) await this.limit.check(bot.id);
    const replyTo = input.message_thread_id ?? input.reply_to_message_id ?? input.reply_parameters?.message_id;
    const id = newId();
    const now = this.deps.clock.now();
    await inTransaction(this.deps.sql, async (client) => {
      const roomId = await roomOfChat(client, bot, input.chat_id);
      let repliedSender: string | undefined;
      if (replyTo === undefined) {
        const sent = await sendPlain(client, { id, room: roomId, sender: bot.accountId, text: input.text, time: now });
        if (!sent || sent.id === null) throw botApiErrors.chatNotFound();
      } else {
        const named = await replyTarget(client, roomId, replyTo);
        const notFound = () =>
          botApiErrors.badRequest(input.message_thread_id !== undefined ? 'message thread not found' : 'message to be replied not found');
        if (!named) throw notFound();
        repliedSender = named.sender_id;
        const seq = await bumpForReply(client, { room: roomId, sender: bot.accountId, time: now, clientMessageId: null });
        if (seq === undefined) throw botApiErrors.chatNotFound();
        const reply = await insertReply(client, {
          id,
          room: roomId,
          seq,
          sender: bot.accountId,
          text: input.text,
          clientMessageId: null,
          time: now,
          named: named.id,
        });
        // No message: the root is recalled (or gone); the bump rolls back with the transaction.
        if (!reply || reply.id === null) throw notFound();
      }
      if (markup) await storeMarkup(client, { id, roomId, senderId: bot.accountId, text: input.text, repliedSender }, markup);
      // What the insert left out, in one statement; a plain send has none of it.
      const formatting = await storedFormatting(client, roomId, input.formatting ?? null);
      const extra: { formatting?: string; attachments?: string } = {};
      if (formatting) extra.formatting = JSON.stringify(formatting);
      if (attach) extra.attachments = JSON.stringify(await attach(client, id, now));
      if (Object.keys(extra).length > 0) await setMessageExtras(client, id, extra);
    });
    return this.view(id);
  }

  /** The bot's own messages, with no edit window (see edits.ts). */
  async edit(bot: BotPrincipal, target: EditTarget, content: EditedContent): Promise<TelegramMessage> {
    const messageId = await editBotMessage(this.deps, this.limit, bot, target, content);
    return this.view(messageId);
  }

  /** A recall for everyone (the chat's recall: the bot's own messages, or any when it is an owner or admin). */
  async delete(bot: BotPrincipal, input: DeleteInput): Promise<true> {
    await this.limit.check(bot.id);
    const roomId = await roomOfChat(this.deps.sql, bot, input.chat_id);
    const found = await messageBySeq(this.deps.sql, roomId, input.message_id);
    if (!found || found.recalled_at !== null) throw botApiErrors.badRequest('message to delete not found');
    try {
      await this.lifecycle.recall(callerOfBot(bot), roomId, found.id);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === 'room_not_found') throw botApiErrors.chatNotFound();
      if (err.code === 'message_not_found') throw botApiErrors.badRequest('message to delete not found');
      if (err.code === 'forbidden') throw botApiErrors.badRequest("message can't be deleted");
      throw err;
    }
    return true;
  }
}
