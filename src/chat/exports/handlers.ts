import { attachmentHeaders } from '../../core/media/attachment-headers.js';
import { callerOf } from '../base/context.js';
import { created, ok } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import { exportPath, type ExportService } from './service.js';

export function exportHandlers(exports: ExportService): ChatFeatureHandlers<'createExport' | 'getExport' | 'downloadExport'> {
  return {
    async createExport(_input, ctx) {
      const view = await exports.start(callerOf(ctx));
      return created(ctx, view, exportPath(view.id));
    },
    async getExport({ params }, ctx) {
      return ok(ctx, await exports.get(callerOf(ctx), params.exportId));
    },
    async downloadExport({ params }, ctx) {
      const archive = await exports.download(callerOf(ctx), params.exportId);
      const headers = attachmentHeaders({ file_name: archive.fileName, content_type: 'application/zip', size: archive.size });
      return { status: 200 as const, body: archive.body, headers };
    },
  };
}
