import { callerOf } from '../context.js';
import { created, ok, okList } from '../envelope.js';
import type { ChatFeatureHandlers } from '../handler-types.js';
import type { RoomService } from './service.js';

export function roomHandlers(rooms: RoomService): ChatFeatureHandlers<'listRooms' | 'createRoom' | 'getOrCreateSelfRoom' | 'getOrCreatePrivateRoom' | 'getRoom'> {
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
    async getRoom({ params }, ctx) {
      return ok(ctx, await rooms.get(callerOf(ctx), params.id));
    },
  };
}
