import { callerOf } from '../base/context.js';
import { ok, okList } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { MemberService } from './service.js';

type MemberOperations =
  | 'listRoomMembers'
  | 'addRoomMembers'
  | 'changeRoomMemberRole'
  | 'listJoinRequests'
  | 'approveJoinRequest'
  | 'rejectJoinRequest'
  | 'leaveRoom';

// Path ids are compared in code as well as in SQL, so they are taken in lower case.
const id = (raw: string) => raw.toLowerCase();

export function memberHandlers(members: MemberService): ChatFeatureHandlers<MemberOperations> {
  return {
    async listRoomMembers({ params, query }, ctx) {
      const page = await members.list(callerOf(ctx), id(params.roomId), query ?? {});
      return okList(ctx, page.items, page);
    },
    async addRoomMembers({ params, body }, ctx) {
      return ok(ctx, await members.add(callerOf(ctx), id(params.roomId), body.accountIds));
    },
    async changeRoomMemberRole({ params, body }, ctx) {
      return ok(ctx, await members.changeRole(callerOf(ctx), id(params.roomId), id(params.accountId), body.role));
    },
    async listJoinRequests({ params, query }, ctx) {
      const page = await members.listJoinRequests(callerOf(ctx), id(params.roomId), query ?? {});
      return okList(ctx, page.items, page);
    },
    async approveJoinRequest({ params }, ctx) {
      return ok(ctx, await members.approve(callerOf(ctx), id(params.roomId), id(params.requestId)));
    },
    async rejectJoinRequest({ params }, ctx) {
      return ok(ctx, await members.reject(callerOf(ctx), id(params.roomId), id(params.requestId)));
    },
    // Leaving is a change of the room's members, served by the member service like the other changes.
    async leaveRoom({ params }, ctx) {
      return ok(ctx, await members.leave(callerOf(ctx), id(params.id)));
    },
  };
}
