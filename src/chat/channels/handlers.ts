import { callerOf } from '../base/context.js';
import { created, ok, okList } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { ChannelService } from './service.js';

type ChannelOperations =
  | 'listChannels'
  | 'createChannel'
  | 'getChannel'
  | 'updateChannel'
  | 'deleteChannel'
  | 'updateChannelRule'
  | 'listChannelMembers'
  | 'addChannelMember'
  | 'updateChannelPreferences';

export function channelHandlers(channels: ChannelService): ChatFeatureHandlers<ChannelOperations> {
  return {
    async listChannels({ query }, ctx) {
      const page = await channels.list(callerOf(ctx), query ?? {});
      return okList(ctx, page.items, page);
    },
    async createChannel({ body }, ctx) {
      const channel = await channels.create(callerOf(ctx), body);
      return created(ctx, channel, `/api/v1/channels/${channel.id}`);
    },
    async getChannel({ params }, ctx) {
      return ok(ctx, await channels.get(callerOf(ctx), params.id));
    },
    async updateChannel({ params, body }, ctx) {
      return ok(ctx, await channels.update(callerOf(ctx), params.id, body));
    },
    async deleteChannel({ params }, ctx) {
      return ok(ctx, await channels.delete(callerOf(ctx), params.id));
    },
    async updateChannelRule({ params, body }, ctx) {
      return ok(ctx, await channels.setRule(callerOf(ctx), params.id, body.rule));
    },
    async listChannelMembers({ params, query }, ctx) {
      const page = await channels.members(callerOf(ctx), params.id, query ?? {});
      return okList(ctx, page.items, page);
    },
    async addChannelMember({ params, body }, ctx) {
      return ok(ctx, await channels.addMember(callerOf(ctx), params.id, body.accountId, body.role ?? 'MEMBER'));
    },
    async updateChannelPreferences({ params, body }, ctx) {
      return ok(ctx, await channels.preferences(callerOf(ctx), params.id, body));
    },
  };
}
