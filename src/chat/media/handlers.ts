import { callerOf } from '../context.js';
import { ok } from '../envelope.js';
import type { ChatFeatureHandlers } from '../handler-types.js';
import type { UploadService } from './sessions.js';

export function uploadHandlers(uploads: UploadService): ChatFeatureHandlers<'createUploadSession'> {
  return {
    async createUploadSession({ body }, ctx) {
      return ok(ctx, await uploads.createSession(callerOf(ctx), body, ctx.origin));
    },
  };
}
