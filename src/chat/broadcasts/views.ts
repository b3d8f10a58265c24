// Broadcasts in their wire shape, and the caller's feed.
import { sql, type ExpressionBuilder, type Selectable } from 'kysely';
import type { ChatTables } from '../base/tables.js';

/** The columns of a broadcast its views are made of. */
export const broadcastColumns = ['b.id', 'b.seq', 'b.title', 'b.text', 'b.modules', 'b.created_by', 'b.created_at'] as const;

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

/**
 * Broadcasts addressed to the caller: to every module or to the caller's module, sent at or after the caller's
 * account was registered (accounts row `me`).
 */
export const addressedTo =
  (moduleCode: string) => (eb: ExpressionBuilder<{ b: ChatTables['broadcasts']; me: ChatTables['accounts'] }, 'b' | 'me'>) =>
    eb.and([
      eb.or([eb('b.modules', 'is', null), sql<boolean>`${moduleCode}::text = any(b.modules)`]),
      eb('b.created_at', '>=', eb.ref('me.created_at')),
    ]);
