// Connected channels: the inbox's addresses on e-mail, SMS, WhatsApp, web chat, phone and others, each with a name
// and a status (active, or paused while its traffic is stopped). A channel's kind is one of the conversation
// channels, so reports by channel line up with it. Removing a channel leaves its conversations as they are.
import { sql, type Selectable } from 'kysely';
import type { Partition } from '../crm/records.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { affected, firstRow, rows } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import { coreDb, type CoreTables } from '../tables.js';
import type { RowPage } from './conversations.js';
import type { InboxErrorFactory } from './errors.js';

export const channelKinds = ['email', 'sms', 'whatsapp', 'webchat', 'phone', 'other'] as const;
export type ChannelKind = (typeof channelKinds)[number];
export type ChannelStatus = 'active' | 'paused';

const columns = ['id', 'kind', 'name', 'status', 'created_at', 'updated_at'] as const;

/** The kind and the status as the table's checks constrain them. */
type Checked = { kind: ChannelKind; status: ChannelStatus };

export type ChannelRow = Omit<Pick<Selectable<CoreTables['inbox_channels']>, (typeof columns)[number]>, keyof Checked> & Checked;

/** The partition's channels with the row's columns. */
const channelsOf = (part: Partition) =>
  coreDb
    .selectFrom('inbox_channels')
    .select(columns)
    .$narrowType<Checked>()
    .where('workspace_id', '=', part.workspaceId)
    .where('environment', '=', part.environment);

export class ChannelStore {
  constructor(
    private readonly sql: Queryable,
    private readonly errors: InboxErrorFactory,
  ) {}

  async list(part: Partition, filters: { kind?: string; status?: string }, page: RowPage): Promise<ChannelRow[]> {
    return rows(
      this.sql,
      channelsOf(part)
        .$if(filters.kind !== undefined, (qb) => qb.where('kind', '=', filters.kind!))
        .$if(filters.status !== undefined, (qb) => qb.where('status', '=', filters.status!))
        .$if(page.beforeId !== undefined, (qb) => qb.where('id', '<', page.beforeId!))
        .orderBy('id', 'desc')
        .limit(page.limit + 1),
    );
  }

  async get(part: Partition, id: string): Promise<ChannelRow> {
    const row = await firstRow(this.sql, channelsOf(part).where('id', '=', id));
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
    const created = await firstRow(
      db,
      coreDb
        .insertInto('inbox_channels')
        .values({
          id: newId(),
          workspace_id: part.workspaceId,
          environment: part.environment,
          kind: body.kind,
          name,
          status: body.status ?? 'active',
          created_at: now,
          updated_at: now,
        })
        .returning(columns)
        .$narrowType<Checked>(),
    );
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
    const row = await firstRow(
      db,
      coreDb
        .updateTable('inbox_channels')
        .set({
          name: sql<string>`coalesce(${name}::text, name)`,
          status: sql<string>`coalesce(${status}::text, status)`,
          // Only a real change moves updated_at.
          updated_at: sql<Date>`case when coalesce(${name}::text, name) is distinct from name
            or coalesce(${status}::text, status) is distinct from status then ${now}::timestamptz else updated_at end`,
        })
        .where('id', '=', id)
        .where('workspace_id', '=', part.workspaceId)
        .where('environment', '=', part.environment)
        .returning(columns)
        .$narrowType<Checked>(),
    );
    if (!row) throw this.errors.channelNotFound();
    return row;
  }

  async remove(db: Queryable, part: Partition, id: string): Promise<void> {
    const removed = await affected(
      db,
      coreDb
        .deleteFrom('inbox_channels')
        .where('id', '=', id)
        .where('workspace_id', '=', part.workspaceId)
        .where('environment', '=', part.environment),
    );
    if (!removed) throw this.errors.channelNotFound();
  }

  /** Trimmed, 1 to 100 characters, not all blank (the spec bounds the length; blanks it cannot see). */
  private nameOf(raw: string): string {
    const name = raw.trim();
    if (name.length < 1 || name.length > 100) throw this.errors.invalid('body.name', 'must be 1 to 100 characters, not all blank');
    return name;
  }
}
