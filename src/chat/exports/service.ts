// Exports of the caller's own data: started as a queued row (one queued or running per account, 409 otherwise),
// built by the export job, downloadable by its owner for a day after it is done, removed after 7 days (prune.ts).
import type { Readable } from 'node:stream';
import { newId } from '../../platform/ids.js';
import type { MediaStore } from '../../core/media/store.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { exportJobName } from './job.js';
import { exportOf, insertExport } from './queries.js';

/** How long the download link of a done export may be used. */
export const downloadValidMs = 24 * 3_600_000;

export interface ExportView {
  id: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  createdAt: string;
  completedAt: string | null;
  size: number | null;
  downloadUrl: string | null;
  expiresAt: string | null;
}

type ExportRow = NonNullable<Awaited<ReturnType<typeof exportOf>>>;

export const exportPath = (id: string): string => `/api/v1/me/exports/${id}`;
const exportNotFound = () => chatErrors.notFound('Export', 'export_not_found');

export class ExportService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly media: MediaStore,
  ) {}

  async start(caller: Caller): Promise<ExportView> {
    const row = await insertExport(this.deps.sql, { id: newId(), accountId: caller.accountId, at: this.deps.clock.now() });
    if (!row) throw chatErrors.conflict('export_running', 'An export of this account is already queued or running.');
    // The job's scheduler picks up the row within seconds should this request not reach Redis.
    await this.deps.queues.maintenance.add(exportJobName, {}).catch(() => undefined);
    return this.view(row);
  }

  async get(caller: Caller, id: string): Promise<ExportView> {
    return this.view(await this.row(caller, id));
  }

  /** The archive of a done export of the caller's while its link is valid. */
  async download(caller: Caller, id: string): Promise<{ fileName: string; size: number; body: Readable }> {
    const row = await this.row(caller, id);
    const view = this.view(row);
    if (view.downloadUrl === null || row.size === null) throw exportNotFound();
    return { fileName: `export-${row.created_at.toISOString().slice(0, 10)}.zip`, size: row.size, body: await this.media.read(row.id) };
  }

  private async row(caller: Caller, id: string): Promise<ExportRow> {
    const row = await exportOf(this.deps.sql, caller.accountId, id);
    if (!row) throw exportNotFound();
    return row;
  }

  private view(row: ExportRow): ExportView {
    const expiresAt = row.completed_at ? new Date(row.completed_at.getTime() + downloadValidMs) : null;
    const usable = row.state === 'done' && expiresAt !== null && this.deps.clock.now() < expiresAt;
    return {
      id: row.id,
      state: row.state as ExportView['state'],
      createdAt: row.created_at.toISOString(),
      completedAt: row.completed_at ? row.completed_at.toISOString() : null,
      size: row.size,
      downloadUrl: usable ? `${exportPath(row.id)}/download` : null,
      expiresAt: expiresAt ? expiresAt.toISOString() : null,
    };
  }
}
