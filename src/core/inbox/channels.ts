// Connected channels: the inbox's addresses on e-mail, SMS, WhatsApp, web chat, phone and others, each with a name
// and a status (active, or paused while its traffic is stopped). A channel's kind is one of the conversation
// channels, so reports by channel line up with it. Removing a channel leaves its conversations as they are.
import type { Partition } from '../crm/records.js';
import { Filters } from '../../platform/db/filters.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { newId } from '../../platform/ids.js';
import type { RowPage } from './conversations.js';
import type { InboxErrorFactory } from './errors.js';

export const channelKinds = ['email', 'sms', 'whatsapp', 'webchat', 'phone', 'other'] as const;
export type ChannelKind = (typeof channelKinds)[number];
export type ChannelStatus = 'active' | 'paused';

export interface ChannelRow {
  id: string;
  kind: ChannelKind;
  name: string;
  status: ChannelStatus;
  created_at: Date;
  updated_at: Date;
}

const columns = 'id, kind, name, status, created_at, updated_at';

export class ChannelStore {
  constructor(
    private readonly sql: Queryable,
    private readonly errors: InboxErrorFactory,
  ) {}

  async list(part: Partition, filters: { kind?: string; status?: string }, page: RowPage): Promise<ChannelRow[]> {
    const where = new Filters([part.workspaceId, part.environment])
      .eq('kind', filters.kind)
      .eq('status', filters.status)
      .raw('id < $?', page.beforeId);
    const { rows } = await this.sql.query<ChannelRow>(
      `select ${columns} from inbox_channels where workspace_id = $1 and environment = $2${where.sql()} order by id desc limit ${where.push(page.limit + 1)}`,
      where.params,
    );
    return rows;
  }

  async get(part: Partition, id: string): Promise<ChannelRow> {
    const { rows } = await this.sql.query<ChannelRow>(
      `select ${columns} from inbox_channels where id = $1 and workspace_id = $2 and environment = $3`,
      [id, part.workspaceId, part.environment],
    );
    if (!rows[0]) throw this.errors.channelNotFound();
    return rows[0];
  }

  async create(
    db: Queryable,
    part: Partition,
    body: { kind: ChannelKind; name: string; status?: ChannelStatus },
    now: Date,
  ): Promise<ChannelRow> {
    const name = this.nameOf(body.name);
    const { rows } = await db.query<ChannelRow>(
      `insert into inbox_channels (id, workspace_id, environment, kind, name, status, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $7) returning ${columns}`,
      [newId(), part.workspaceId, part.environment, body.kind, name, body.status ?? 'active', now],
    );
    return rows[0]!;
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
    const { rows } = await db.query<ChannelRow>(
      `update inbox_channels set name = coalesce($4, name), status = coalesce($5, status),
         updated_at = case when coalesce($4, name) is distinct from name or coalesce($5, status) is distinct from status then $6 else updated_at end
       where id = $1 and workspace_id = $2 and environment = $3 returning ${columns}`,
      [id, part.workspaceId, part.environment, name, body.status ?? null, now],
    );
    if (!rows[0]) throw this.errors.channelNotFound();
    return rows[0];
  }

  async remove(db: Queryable, part: Partition, id: string): Promise<void> {
    const { rowCount } = await db.query('delete from inbox_channels where id = $1 and workspace_id = $2 and environment = $3', [
      id,
      part.workspaceId,
      part.environment,
    ]);
    if (!rowCount) throw this.errors.channelNotFound();
  }

  /** Trimmed, 1 to 100 characters, not all blank (the spec bounds the length; blanks it cannot see). */
  private nameOf(raw: string): string {
    const name = raw.trim();
    if (name.length < 1 || name.length > 100) throw this.errors.invalid('body.name', 'must be 1 to 100 characters, not all blank');
    return name;
  }
}
