// /api/v1/inbox/channels: the connected channels of the key's workspace and environment (channels:read to view,
// channels:manage to connect, change and disconnect). Channel changes emit no event: the catalogue names none.
import { ChannelStore } from '../../core/inbox/channels.js';
import type { PartnerDeps } from '../base/deps.js';
import type { PartnerFeatureHandlers } from '../base/handler-types.js';
import { partnerInboxErrors } from './errors.js';
import { partitionOf } from '../base/partition.js';
import { inboxBasePath } from './handlers.js';
import { afterIdOf, defaultLimit, idPage, listIn } from '../base/paging.js';
import { channelObject } from './views.js';

export type ChannelOperationId =
  'listInboxChannels' | 'createInboxChannel' | 'getInboxChannel' | 'updateInboxChannel' | 'deleteInboxChannel';

export function channelHandlers(deps: PartnerDeps): PartnerFeatureHandlers<ChannelOperationId> {
  const channels = new ChannelStore(deps.sql, partnerInboxErrors);
  return {
    async listInboxChannels({ query }, ctx) {
      const { limit = defaultLimit, cursor, ...filters } = query ?? {};
      const part = partitionOf(ctx);
      const list = listIn(part, 'inbox.channels', filters);
      const rows = await channels.list(part, filters, { limit, beforeId: afterIdOf(list, cursor) });
      return { status: 200, body: idPage(list, rows, limit, channelObject) };
    },
    async createInboxChannel({ body }, ctx) {
      const channel = channelObject(await channels.create(ctx.db, partitionOf(ctx), body, deps.clock.now()));
      return { status: 201, body: channel, location: `${inboxBasePath}/channels/${channel.id}` };
    },
    async getInboxChannel({ params }, ctx) {
      return { status: 200, body: channelObject(await channels.get(partitionOf(ctx), params.id)) };
    },
    async updateInboxChannel({ params, body }, ctx) {
      return { status: 200, body: channelObject(await channels.update(ctx.db, partitionOf(ctx), params.id, body, deps.clock.now())) };
    },
    async deleteInboxChannel({ params }, ctx) {
      await channels.remove(ctx.db, partitionOf(ctx), params.id);
      return { status: 200, body: { object: 'inbox.channel', id: params.id, deleted: true } };
    },
  };
}
