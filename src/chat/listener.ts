// The chat listener: the chat OpenAPI document bound to its handlers, bearer-JWT authentication and the
// chat error envelope.
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../platform/logger.js';
import { buildListener, type HttpTimeouts } from '../platform/http/server.js';
import { routeReadsByCaller } from '../platform/http/read-your-writes.js';
import { loadOptionalSpecification, loadSpecification } from '../platform/http/specification.js';
import type { Readiness } from '../platform/readiness.js';
import { accountHandlers } from './accounts/handlers.js';
import { AccountService } from './accounts/service.js';
import { moduleHandlers } from './admin-modules/handlers.js';
import { ModuleService } from './admin-modules/service.js';
import { workspacePlanHandlers } from './admin-workspaces/handlers.js';
import { WorkspacePlanService } from './admin-workspaces/service.js';
import { createAuthenticator } from '../core/auth/authenticate.js';
import { broadcastHandlers } from './broadcasts/handlers.js';
import { BroadcastService } from './broadcasts/service.js';
import { channelHandlers } from './channels/handlers.js';
import { ChannelService } from './channels/service.js';
import { sendLimited, type SendLimit } from './auth/send-limit.js';
import { botApiClientErrors, botApiDiversion, buildBotListener } from './bots/api/listener.js';
import type { BotSendLimit } from './bots/api/send-limit.js';
import type { WebhookDeliveries } from './bots/delivery/queue.js';
import { botHandlers } from './bots/handlers.js';
import { InlineButtonService } from './bots/press.js';
import { ReplyKeyboardService } from './bots/reply-keyboards.js';
import { BotAdminService } from './bots/service.js';
import type { UpdateWaiters } from './bots/updates/waiters.js';
import type { WebhookPolicy } from './bots/webhook-url.js';
import { chatContext, type ChatContext } from './base/context.js';
import type { ChatDeps } from './base/deps.js';
import type { BotDeps } from './bots/deps.js';
import { accountAdminOperations, requireAccountAdmin } from './accounts/admin-gate.js';
import { contactHandlers } from './contacts/handlers.js';
import { ContactService } from './contacts/service.js';
import { chatErrors, renderChatError } from './base/errors.js';
import type { ChatHandlers, ChatOperations } from './base/handler-types.js';
import { healthHandlers } from './health/handlers.js';
import { memberHandlers } from './members/handlers.js';
import { MemberService } from './members/service.js';
import { messageActionHandlers } from './messages/action-handlers.js';
import { ForwardService } from './messages/forward.js';
import { messageHandlers } from './messages/handlers.js';
import { MessageLifecycleService } from './messages/lifecycle.js';
import { ReactionService } from './messages/reactions.js';
import { MessageService } from './messages/service.js';
import { pinHandlers } from './pins/handlers.js';
import { presenceHandlers } from './presence/handlers.js';
import type { PresenceService } from './presence/service.js';
import type { TypingService } from './presence/typing.js';
import { PinService } from './pins/service.js';
import { roomHandlers } from './rooms/handlers.js';
import { PersonalRoomService } from './rooms/personal.js';
import { RoomService } from './rooms/service.js';
import { threadHandlers } from './threads/handlers.js';
import { realtimeHandlers } from './realtime/handlers.js';
import { ThreadService } from './threads/service.js';
import { draftHandlers } from './drafts/handlers.js';
import { DraftService } from './drafts/service.js';
import { retentionHandlers } from './retention/handlers.js';
import { RetentionService } from './retention/service.js';
import { labelHandlers } from './labels/handlers.js';
import { LabelService } from './labels/service.js';
import { savedHandlers } from './saved/handlers.js';
import { SavedService } from './saved/service.js';
import { receiptHandlers } from './receipts/handlers.js';
import { ReceiptService } from './receipts/service.js';
import { mentionHandlers } from './mentions/handlers.js';
import { MentionInboxService } from './mentions/inbox.js';
import { searchHandlers } from './search/handlers.js';
import { SearchService } from './search/service.js';
import { pollHandlers } from './polls/handlers.js';
import { PollService } from './polls/service.js';
import { uploadHandlers } from './media/handlers.js';
import { mountMedia } from './media/mount.js';
import { UploadService } from './media/sessions.js';
import type { MediaStore } from '../core/media/store.js';
import { reminderHandlers } from './reminders/handlers.js';
import { ReminderService } from './reminders/service.js';
import { scheduledHandlers } from './scheduled/handlers.js';
import { exportHandlers } from './exports/handlers.js';
import { ExportService } from './exports/service.js';
import { ScheduledMessageService } from './scheduled/service.js';
import { erasureHandlers } from './erasure/handlers.js';
import { ErasureService } from './erasure/service.js';

export interface ChatListenerOptions {
  deps: ChatDeps;
  log: Logger;
  bodyLimit: number;
  audience: string;
  maxTokenLifetimeSeconds: number;
  sendLimit: SendLimit;
  readiness: () => Promise<Readiness>;
  /** Where uploaded files live; the media service (tus uploads, downloads) is mounted on this listener. */
  media: MediaStore;
  bots: {
    waiters: UpdateWaiters;
    deliveries: WebhookDeliveries;
    webhookPolicy: WebhookPolicy;
    sendLimit: BotSendLimit;
    longPollMaxSeconds: number;
  };
  /** Typing notices and presence, shared with the realtime gateway (both live in Redis). */
  presence: { typing: TypingService; presence: PresenceService };
  /** Socket timeouts (REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS). */
  timeouts?: HttpTimeouts;
}

export async function buildChatListener(options: ChatListenerOptions): Promise<FastifyInstance> {
  const { deps } = options;
  const botDeps = {
    ...deps,
    waiters: options.bots.waiters,
    deliveries: options.bots.deliveries,
    webhookPolicy: options.bots.webhookPolicy,
  };
  // The Bot API shares this port (docs/bots.md): requests under /bot go to its own listener.
  const botApi = await buildBotListener({
    deps: botDeps,
    sendLimit: options.bots.sendLimit,
    longPollMaxSeconds: options.bots.longPollMaxSeconds,
    log: options.log,
    bodyLimit: options.bodyLimit,
    media: options.media,
    readiness: options.readiness,
  });
  const handlers = chatHandlers(options, botDeps);
  handlers.sendMessage = sendLimited(handlers.sendMessage, options.sendLimit);
  // Scheduling is sending later: it counts at request time, so a schedule cannot outrun the limit.
  handlers.createScheduledMessage = sendLimited(handlers.createScheduledMessage, options.sendLimit);
  handlers.pressInlineButton = sendLimited(handlers.pressInlineButton, options.sendLimit);
  // A forward creates one message per id; a poll is a message of its own.
  handlers.forwardMessages = sendLimited(handlers.forwardMessages, options.sendLimit, (input) => input.body.messageIds.length);
  handlers.createPoll = sendLimited(handlers.createPoll, options.sendLimit);
  const authenticate = createAuthenticator(deps.accounts, deps.verifyKeys, deps.clock, {
    audience: options.audience,
    platformModule: deps.config.platformModule,
    maxTokenLifetimeSec: options.maxTokenLifetimeSeconds,
  });
  const specification = await loadSpecification('chat');
  const accountAdmin = accountAdminOperations(specification);
  const chat = await buildListener<ChatOperations, ChatContext>({
    name: 'chat',
    log: options.log,
    bodyLimit: options.bodyLimit,
    timeouts: options.timeouts,
    specification,
    handlers,
    context: chatContext,
    authenticate: async (request, _security, operationId) => {
      request.caller = await authenticate(request);
      if (accountAdmin.has(operationId)) await requireAccountAdmin(deps.sql, request.caller);
    },
    requirePlatformAdmin: (request) => {
      if (!request.caller?.platformAdmin) throw chatErrors.platformAdminRequired();
    },
    readiness: options.readiness,
    renderError: renderChatError,
    // The Bot API's document, rendered by /docs beside the chat one once generated/openapi/bot.json exists.
    extraDocuments: await botDocument(),
    publicUrl: deps.config.chatPublicUrl,
    divert: botApiDiversion(botApi),
    clientErrorRenderer: botApiClientErrors,
    configure: (app) =>
      routeReadsByCaller(app, deps.reads, (request) => (request.caller ? `account:${request.caller.accountId}` : undefined), options.log),
  });
  await mountMedia(chat, deps, options.media, authenticate);
  // Waiting long polls answer at once, so that closing does not wait for their timeouts.
  chat.addHook('preClose', async () => options.bots.waiters.close());
  chat.addHook('onClose', async () => botApi.close());
  return chat;
}

/** Every chat operation's handler over its service; the services that others build on are made once. */
function chatHandlers(options: ChatListenerOptions, botDeps: BotDeps): ChatHandlers {
  const { deps } = options;
  const rooms = new RoomService(deps);
  const members = new MemberService(deps, rooms);
  return {
    ...healthHandlers(options.readiness),
    ...moduleHandlers(new ModuleService(deps)),
    ...workspacePlanHandlers(new WorkspacePlanService(deps, deps.gateKeys)),
    ...accountHandlers(new AccountService(deps)),
    ...roomHandlers(rooms, new PersonalRoomService(deps, rooms)),
    ...memberHandlers(members),
    ...messageHandlers(new MessageService(deps)),
    ...messageActionHandlers({
      lifecycle: new MessageLifecycleService(deps),
      reactions: new ReactionService(deps),
      forward: new ForwardService(deps),
    }),
    ...pinHandlers(new PinService(deps)),
    ...threadHandlers(new ThreadService(deps)),
    ...channelHandlers(new ChannelService(deps, rooms)),
    ...contactHandlers(new ContactService(deps)),
    ...broadcastHandlers(new BroadcastService(deps)),
    ...draftHandlers(new DraftService(deps)),
    ...retentionHandlers(new RetentionService(deps)),
    ...labelHandlers(new LabelService(deps)),
    ...savedHandlers(new SavedService(deps)),
    ...receiptHandlers(new ReceiptService(deps)),
    ...searchHandlers(new SearchService(deps)),
    ...mentionHandlers(new MentionInboxService(deps)),
    ...pollHandlers(new PollService(deps)),
    ...realtimeHandlers(deps.sql),
    ...presenceHandlers(options.presence.typing, options.presence.presence),
    ...uploadHandlers(new UploadService(deps)),
    ...reminderHandlers(new ReminderService(deps, rooms)),
    ...scheduledHandlers(new ScheduledMessageService(deps)),
    ...botHandlers(new BotAdminService(botDeps), new InlineButtonService(botDeps), new ReplyKeyboardService(botDeps)),
    ...erasureHandlers(new ErasureService(deps)),
    ...exportHandlers(new ExportService(deps, options.media)),
  };
}

async function botDocument() {
  const specification = await loadOptionalSpecification('bot');
  return specification ? [{ slug: 'bot', title: 'Bot API', specification }] : [];
}
