// Room administration through Telegram's methods, where the bot's room role allows it as it would a member's:
// getChatAdministrators lists owners and admins; leaveChat is the member's leave; setChatTitle/setChatDescription
// are the room's update (owner or admin); deleteMessages recalls several messages as deleteMessage recalls one.
// The chat's own services do the work, with the bot as the caller, so their rules and events hold for bots too.
import { AppError } from '../../../platform/http/app-error.js';
import { MessageLifecycleService } from '../../messages/lifecycle.js';
import { MemberService } from '../../members/service.js';
import { isManager, roleIn } from '../../base/membership.js';
import { RoomService } from '../../rooms/service.js';
import type { BotDeps } from '../deps.js';
import { chatMember } from './chat-methods.js';
import { roomManagers } from './chat-queries.js';
import { roomOfChat, type ChatRef } from './chats.js';
import type { BotPrincipal } from './context.js';
import { botApiErrors } from './errors.js';
import { callerOfBot } from './messages.js';
import { liveMessagesBySeq } from './message-queries.js';
import type { BotSendLimit } from './send-limit.js';

/** The chat's refusals of a room change, in Telegram's words. */
function refusal(err: unknown, forbidden: string, fixed: string): never {
  if (!(err instanceof AppError)) throw err;
  if (err.code === 'room_not_found') throw botApiErrors.chatNotFound();
  if (err.code === 'forbidden') throw botApiErrors.badRequest(forbidden);
  if (err.code === 'unsupported_room_type') throw botApiErrors.badRequest(fixed);
  if (err.code === 'last_owner') throw botApiErrors.badRequest(`${forbidden}: ${err.message}`);
  throw err;
}

export class BotChatAdministration {
  private readonly rooms: RoomService;
  private readonly members: MemberService;
  private readonly lifecycle: MessageLifecycleService;

  constructor(
    private readonly deps: BotDeps,
    private readonly limit: BotSendLimit,
  ) {
    this.rooms = new RoomService(deps);
    this.members = new MemberService(deps, this.rooms);
    this.lifecycle = new MessageLifecycleService(deps);
  }

  async getChatAdministrators(bot: BotPrincipal, input: { chat_id: ChatRef }) {
    const roomId = await roomOfChat(this.deps.sql, bot, input.chat_id);
    const managers = await roomManagers(this.deps.sql, roomId);
    return managers.map(chatMember);
  }

  async leaveChat(bot: BotPrincipal, input: { chat_id: ChatRef }): Promise<true> {
    await this.limit.check(bot.id);
    const roomId = await roomOfChat(this.deps.sql, bot, input.chat_id);
    try {
      await this.members.leave(callerOfBot(bot), roomId);
    } catch (err) {
      refusal(err, "can't leave the chat", "can't leave private chat");
    }
    return true;
  }

  async setChatTitle(bot: BotPrincipal, input: { chat_id: ChatRef; title: string }): Promise<true> {
    await this.limit.check(bot.id);
    const roomId = await roomOfChat(this.deps.sql, bot, input.chat_id);
    try {
      await this.rooms.update(callerOfBot(bot), roomId, { name: input.title });
    } catch (err) {
      refusal(err, 'not enough rights to change chat title', "chat title can't be changed in private chats");
    }
    return true;
  }

  async setChatDescription(bot: BotPrincipal, input: { chat_id: ChatRef; description?: string }): Promise<true> {
    await this.limit.check(bot.id);
    const roomId = await roomOfChat(this.deps.sql, bot, input.chat_id);
    const description = input.description === undefined || input.description === '' ? null : input.description;
    try {
      await this.rooms.update(callerOfBot(bot), roomId, { description });
    } catch (err) {
      refusal(err, 'not enough rights to change chat description', "chat description can't be changed in private chats");
    }
    return true;
  }

  /**
   * Checked before anything is recalled: every message found must be the bot's own, or the bot an owner or admin of
   * the room; otherwise nothing is deleted. Messages not found (or recalled already) are skipped, as Telegram does.
   */
  async deleteMessages(bot: BotPrincipal, input: { chat_id: ChatRef; message_ids: number[] }): Promise<true> {
    await this.limit.check(bot.id);
    const roomId = await roomOfChat(this.deps.sql, bot, input.chat_id);
    const found = await liveMessagesBySeq(this.deps.sql, roomId, [...new Set(input.message_ids)]);
    const others = found.some((m) => m.sender_id !== bot.accountId);
    if (others && !isManager(await roleIn(this.deps.sql, roomId, bot.accountId))) {
      throw botApiErrors.badRequest("message can't be deleted: the bot is not an owner or admin of the chat");
    }
    for (const message of found) {
      try {
        await this.lifecycle.recall(callerOfBot(bot), roomId, message.id);
      } catch (err) {
        // Recalled or gone meanwhile: skipped, as a message not found is.
        if (!(err instanceof AppError) || !['message_not_found', 'message_recalled'].includes(err.code)) throw err;
      }
    }
    return true;
  }
}
