// Connected channels: the inbox's addresses on e-mail, SMS, WhatsApp, web chat, phone and others, each with a name
// and a status (active, or paused while its traffic is stopped). A channel's kind is one of the conversation
// channels, so reports by channel line up with it. Removing a channel leaves its conversations as they are.
import type { Partition } from '../crm/queries.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { newId } from '../../platform/ids.js';
import { channelById, channelsPage, deleteChannel, insertChannel, updateChannel } from './channel-queries.js';
import type { InboxErrorFactory } from './errors.js';
import type { RowPage } from './queries.js';
import type { ChannelKind, ChannelRow, ChannelStatus } from './views.js';

export { channelKinds, type ChannelKind, type ChannelRow, type ChannelStatus } from './views.js';

export class ChannelStore {
  constructor(
    private readonly sql: Queryable,
    private readonly errors: InboxErrorFactory,
  ) {}

  async list(part: Partition, filters: { kind?: string; status?: string }, page: RowPage): Promise<ChannelRow[]> {
    return channelsPage(this.sql, part, filters, page);
  }

  async get(part: Partition, id: string): Promise<ChannelRow> {
    const row = await channelById(this.sql, part, id);
    if (!row) throw this.errors.channelNotFound();
    return row;
  }

  async create(
    db: Queryable,
    part: Partition,
    body: { kind: ChannelKind; name: string; status?: ChannelStatus },
    now: Date,
  ): Promise<ChannelRow> {
    const name = this.nameOf(body.name);
    const created = await insertChannel(db, part, { id: newId(), kind: body.kind, name, status: body.status ?? 'active' }, now);
    return created!;
  }

  /** Changes the given fields (name, status); the kind of a channel is fixed. An empty change answers it unchanged. */
  async update(
    db: Queryable,
    part: Partition,
    id: string,
    body: { name?: string; status?: ChannelStatus },
    now: Date,
  ): Promise<ChannelRow> {
    const name = body.name !== undefined ? this.nameOf(body.name) : null;
    const status = body.status ?? null;
    const row = await updateChannel(db, part, id, { name, status }, now);
    if (!row) throw this.errors.channelNotFound();
    return row;
  }

  async remove(db: Queryable, part: Partition, id: string): Promise<void> {
    const removed = await deleteChannel(db, part, id);
    if (!removed) throw this.errors.channelNotFound();
  }

  /** Trimmed, 1 to 100 characters, not all blank (the spec bounds the length; blanks it cannot see). */
  private nameOf(raw: string): string {
    const name = raw.trim();
    if (name.length < 1 || name.length > 100) throw this.errors.invalid('body.name', 'must be 1 to 100 characters, not all blank');
    return name;
  }
}
