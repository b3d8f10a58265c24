// Broadcasts in their wire shape, and the caller's feed.
import type { Selectable } from 'kysely';
import type { ChatTables } from '../base/tables.js';

export type BroadcastRow = Pick<
  Selectable<ChatTables['broadcasts']>,
  'id' | 'seq' | 'title' | 'text' | 'modules' | 'created_by' | 'created_at'
>;

export interface BroadcastView {
  id: string;
  title: string | null;
  text: string;
  audience: { kind: 'all' | 'modules'; modules: string[] | null };
  createdBy: string;
  createdAt: string;
}

export interface BroadcastFeedItem extends BroadcastView {
  read: boolean;
}

export function broadcastView(row: BroadcastRow): BroadcastView {
  return {
    id: row.id,
    title: row.title,
    text: row.text,
    audience: row.modules === null ? { kind: 'all', modules: null } : { kind: 'modules', modules: row.modules as string[] },
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
  };
}
