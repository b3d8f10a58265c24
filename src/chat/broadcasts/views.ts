// Broadcasts in their wire shape, and the caller's feed.

export interface BroadcastRow {
  id: string;
  seq: number;
  title: string | null;
  text: string;
  modules: string[] | null;
  created_by: string;
  created_at: Date;
}

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
    audience: row.modules === null ? { kind: 'all', modules: null } : { kind: 'modules', modules: row.modules },
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * Broadcasts addressed to the caller: to every module or to the caller's ($2), sent at or after the caller's
 * account was registered (accounts row `me`).
 */
export const addressedTo = `(b.modules is null or $2::text = any(b.modules)) and b.created_at >= me.created_at`;
