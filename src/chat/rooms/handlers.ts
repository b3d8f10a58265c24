import { callerOf } from '../base/context.js';
import { created, ok, okList } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { PersonalRoomService } from './personal.js';
import type { RoomService } from './service.js';

type RoomOperations =
  | 'listRooms'
  | 'createRoom'
  | 'getOrCreateSelfRoom'
  | 'getOrCreatePrivateRoom'
  | 'getOrCreateReminderRoom'
  | 'getRoom'
  | 'updateRoom'
  | 'deleteRoom'
  | 'archiveRoom'
  | 'unarchiveRoom'
  | 'muteRoom'
  | 'unmuteRoom'
  | 'updateRoomPreferences'
  | 'markRoomRead';

// Path ids are compared in code as well as in SQL, so they are taken in lower case.
const id = (raw: string) => raw.toLowerCase();

export function roomHandlers(rooms: RoomService, personal: PersonalRoomService): ChatFeatureHandlers<RoomOperations> {
  return {
    async listRooms({ query }, ctx) {
      const page = await rooms.list(callerOf(ctx), query ?? {});
      return okList(ctx, page.items, page);
    },
    async createRoom({ body }, ctx) {
      const room = await rooms.create(callerOf(ctx), body);
      return created(ctx, room, `/api/v1/rooms/${room.id}`);
    },
    async getOrCreateSelfRoom(_input, ctx) {
      return ok(ctx, await rooms.getOrCreateSelf(callerOf(ctx)));
    },
    async getOrCreatePrivateRoom({ body }, ctx) {
      return ok(ctx, await rooms.getOrCreatePrivate(callerOf(ctx), body.accountId));
    },
    async getOrCreateReminderRoom(_input, ctx) {
      return ok(ctx, await rooms.getOrCreateReminder(callerOf(ctx)));
    },
    async getRoom({ params }, ctx) {
      return ok(ctx, await rooms.get(callerOf(ctx), id(params.id)));
    },
    async updateRoom({ params, body }, ctx) {
      return ok(ctx, await rooms.update(callerOf(ctx), id(params.id), body));
    },
    async deleteRoom({ params }, ctx) {
      return ok(ctx, await rooms.delete(callerOf(ctx), id(params.id)));
    },
    async archiveRoom({ params }, ctx) {
      return ok(ctx, await personal.archive(callerOf(ctx), id(params.id), true));
    },
    async unarchiveRoom({ params }, ctx) {
      return ok(ctx, await personal.archive(callerOf(ctx), id(params.id), false));
    },
    async muteRoom({ params, body }, ctx) {
      return ok(ctx, await personal.mute(callerOf(ctx), id(params.id), body?.until));
    },
    async unmuteRoom({ params }, ctx) {
      return ok(ctx, await personal.unmute(callerOf(ctx), id(params.id)));
    },
    async updateRoomPreferences({ params, body }, ctx) {
      return ok(ctx, await personal.preferences(callerOf(ctx), id(params.id), body));
    },
    async markRoomRead({ params, body }, ctx) {
      return ok(ctx, await personal.markRead(callerOf(ctx), id(params.roomId), body?.messageId?.toLowerCase()));
    },
  };
}
