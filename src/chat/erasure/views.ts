// An erasure as the administration API answers it.
import type { ErasureMode } from './queries.js';

export type ErasureState = 'queued' | 'running' | 'done' | 'failed';

export interface ErasureView {
  id: string;
  accountId: string;
  erasedBy: string;
  requestedAt: string;
  messages: ErasureMode;
  state: ErasureState;
  finishedAt: string | null;
}

export interface ErasureRow {
  id: string;
  account_id: string;
  erased_by: string;
  requested_at: Date;
  messages: string;
  state: string;
  finished_at: Date | null;
}

export function erasureView(r: ErasureRow): ErasureView {
  return {
    id: r.id,
    accountId: r.account_id,
    erasedBy: r.erased_by,
    requestedAt: r.requested_at.toISOString(),
    messages: r.messages as ErasureMode,
    state: r.state as ErasureState,
    finishedAt: r.finished_at?.toISOString() ?? null,
  };
}
