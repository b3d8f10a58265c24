// The chat methods bots commonly call, mapped onto this chat: getChat, getChatMember(Count) read the room and its
// members; sendChatAction shows the members that the bot is busy (a bot.chat_action event, nothing stored);
// set/get/deleteMyCommands keep the bot's command menu; pin/unpinChatMessage are the room pin; forwardMessage is
// the chat's forward; copyMessage sends the original's text and files as the bot's own message. The chat's own services do
// the work, with the bot as the caller, so its rules (roles, recalls, events) hold for bots too.
import { inTransaction } from '../../../platform/db/sql.js';
import { AppError } from '../../../platform/http/app-error.js';
import type { ForwardService } from '../../messages/forward.js';
import type { PinService } from '../../pins/service.js';
import { emit, roomAudience } from '../../events/emit.js';
import type { BotDeps } from '../deps.js';
import { loadBotMessages, telegramChat, telegramMessage, telegramUser, type TelegramMessage } from '../telegram.js';
import { clearCommands, commandsOf, setCommands, type BotCommand } from './bot-queries.js';
import { chatOfRoom, latestPinnedMessage, memberCount, roomMemberByUserId } from './chat-queries.js';
import { copiedFiles } from './file-copies.js';
import { captionOf, type CaptionInput } from './files.js';
import { spansOf } from './text-mentions.js';
import { roomOfChat, type ChatRef } from './chats.js';
import type { BotPrincipal } from './context.js';
import { botApiErrors } from './errors.js';
import { callerOfBot, type BotMessages } from './messages.js';
import { copySource, liveMessageId } from './message-queries.js';
import type { BotSendLimit } from './send-limit.js';

type ForwardInput = { chat_id: ChatRef; from_chat_id: ChatRef; message_id: number };

/** Telegram's rights of an administrator, as a room admin here has them. */
const adminRights = {
  can_be_edited: false,
  is_anonymous: false,
  can_manage_chat: true,
  can_delete_messages: true,
  can_manage_video_chats: false,
  can_restrict_members: true,
  can_promote_members: false,
  can_change_info: true,
  can_invite_users: true,
  can_post_stories: false,
  can_edit_stories: false,
  can_delete_stories: false,
  can_send_welcome_messages: false,
  can_pin_messages: true,
};

const statusOf: Record<string, 'creator' | 'administrator' | 'member'> = {
  OWNER: 'creator',
  ADMIN: 'administrator',
  MEMBER: 'member',
};

interface MemberRow {
  role: string;
  bot_api_id: number;
  display_name: string;
  account_type: string;
  username: string | null;
}

/** Telegram's ChatMember of a room member: its role as status, an admin with the rights a room admin has. */
export function chatMember(member: MemberRow) {
  const status = statusOf[member.role] ?? 'member';
  const user = telegramUser(member.bot_api_id, member.display_name, member.account_type, member.username);
  if (status === 'administrator') return { status, user, ...adminRights };
  if (status === 'creator') return { status, user, is_anonymous: false };
  return { status, user };
}

/** The chat's errors for a bot's write, in Telegram's words. */
function asBotError(err: unknown, forbidden: string): never {
  if (!(err instanceof AppError)) throw err;
  if (err.code === 'room_not_found') throw botApiErrors.chatNotFound();
  if (err.code === 'message_not_found') throw botApiErrors.badRequest('message not found');
  if (err.code === 'message_recalled') throw botApiErrors.badRequest('message not found');
  if (err.code === 'forbidden') throw botApiErrors.badRequest(forbidden);
  throw err;
}

export class BotChatMethods {
  constructor(
    private readonly deps: BotDeps,
    private readonly messages: BotMessages,
    private readonly limit: BotSendLimit,
    private readonly pins: PinService,
    private readonly forwards: ForwardService,
  ) {}

  async getChat(bot: BotPrincipal, input: { chat_id: ChatRef }) {
    const roomId = await roomOfChat(this.deps.sql, bot, input.chat_id);
    const room = (await chatOfRoom(this.deps.sql, roomId, bot.accountId))!;
    const chat = telegramChat(room.bot_api_id, room.type, room.name);
    return {
      ...chat,
      ...(chat.type === 'private' && room.other_name ? { first_name: room.other_name } : {}),
      accent_color_id: 0,
      max_reaction_count: 1,
    };
  }

  async getChatMember(bot: BotPrincipal, input: { chat_id: ChatRef; user_id: number }) {
    const roomId = await roomOfChat(this.deps.sql, bot, input.chat_id);
    const member = await roomMemberByUserId(this.deps.sql, roomId, input.user_id);
    // Accounts outside the room are not told apart from numbers that name nobody.
    if (!member) throw botApiErrors.badRequest('user not found');
    return chatMember(member);
  }

  async getChatMemberCount(bot: BotPrincipal, input: { chat_id: ChatRef }): Promise<number> {
    const roomId = await roomOfChat(this.deps.sql, bot, input.chat_id);
    return memberCount(this.deps.sql, roomId);
  }

  /** Counted against the send limit: each action reaches every member of the room. */
  async sendChatAction(bot: BotPrincipal, input: { chat_id: ChatRef; action: string }): Promise<true> {
    await this.limit.check(bot.id);
    await inTransaction(this.deps.sql, async (client) => {
      const roomId = await roomOfChat(client, bot, input.chat_id);
      await emit(
        client,
        'bot.chat_action',
        { roomId, botId: bot.id, accountId: bot.accountId, action: input.action },
        roomAudience(roomId),
      );
    });
    return true;
  }

  async setMyCommands(bot: BotPrincipal, input: { commands: BotCommand[] }): Promise<true> {
    const commands = input.commands.map((c) => ({ command: c.command, description: c.description }));
    await setCommands(this.deps.sql, bot.id, commands);
    return true;
  }

  async getMyCommands(bot: BotPrincipal): Promise<BotCommand[]> {
    return (await commandsOf(this.deps.sql, bot.id)) ?? [];
  }

  async deleteMyCommands(bot: BotPrincipal): Promise<true> {
    await clearCommands(this.deps.sql, bot.id);
    return true;
  }

  /** The message's uuid in the room, by its message_id (sequence number). */
  private async messageIn(roomId: string, seq: number, missing: string): Promise<string> {
    const message = await liveMessageId(this.deps.sql, roomId, seq);
    if (!message) throw botApiErrors.badRequest(missing);
    return message;
  }

  async pinChatMessage(bot: BotPrincipal, input: { chat_id: ChatRef; message_id: number }): Promise<true> {
    await this.limit.check(bot.id);
    const roomId = await roomOfChat(this.deps.sql, bot, input.chat_id);
    const messageId = await this.messageIn(roomId, input.message_id, 'message to pin not found');
    try {
      await this.pins.pin(callerOfBot(bot), roomId, messageId, 'ROOM');
    } catch (err) {
      asBotError(err, 'not enough rights to manage pinned messages in the chat');
    }
    return true;
  }

  async unpinChatMessage(bot: BotPrincipal, input: { chat_id: ChatRef; message_id?: number }): Promise<true> {
    await this.limit.check(bot.id);
    const roomId = await roomOfChat(this.deps.sql, bot, input.chat_id);
    let messageId: string;
    if (input.message_id !== undefined) messageId = await this.messageIn(roomId, input.message_id, 'message to unpin not found');
    else {
      const latest = await latestPinnedMessage(this.deps.sql, roomId);
      if (!latest) return true;
      messageId = latest;
    }
    try {
      await this.pins.unpin(callerOfBot(bot), roomId, messageId, 'ROOM');
    } catch (err) {
      asBotError(err, 'not enough rights to manage pinned messages in the chat');
    }
    return true;
  }

  async forwardMessage(bot: BotPrincipal, input: ForwardInput): Promise<TelegramMessage> {
    await this.limit.check(bot.id);
    const target = await roomOfChat(this.deps.sql, bot, input.chat_id);
    const source = await roomOfChat(this.deps.sql, bot, input.from_chat_id);
    const original = await this.messageIn(source, input.message_id, 'message to forward not found');
    let copyId: string;
    try {
      const [copy] = await this.forwards.forward(callerOfBot(bot), target, { fromRoomId: source, messageIds: [original] });
      copyId = copy!.id;
    } catch (err) {
      asBotError(err, "message can't be forwarded");
    }
    const row = (await loadBotMessages(this.deps.sql, [copyId])).get(copyId);
    if (!row) throw new Error(`forwarded message ${copyId} vanished after its write`);
    return telegramMessage(row);
  }

  /**
   * The original's text with its formatting and files (the same stored files, with their kinds), sent as the bot's
   * own message; a caption given replaces a file message's, as in Telegram (a text message keeps its text).
   */
  async copyMessage(bot: BotPrincipal, input: ForwardInput & CaptionInput): Promise<{ message_id: number }> {
    const source = await roomOfChat(this.deps.sql, bot, input.from_chat_id);
    const original = await copySource(this.deps.sql, source, input.message_id);
    if (!original) throw botApiErrors.badRequest('message to copy not found');
    const files = copiedFiles(original.attachments);
    if (!original.text && !files) throw botApiErrors.badRequest("message can't be copied: it has no text");
    const content =
      files && input.caption !== undefined ? captionOf(input) : { text: original.text ?? '', formatting: spansOf(original.formatting) };
    const sent = await this.messages.send(bot, { chat_id: input.chat_id, ...content }, files);
    return { message_id: sent.message_id };
  }
}
