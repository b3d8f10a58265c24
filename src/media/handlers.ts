import { callerOf } from '../chat/context.js';
import { ok } from '../chat/envelope.js';
import type { ChatFeatureHandlers } from '../chat/handler-types.js';
import type { UploadService } from './sessions.js';

export function uploadHandlers(uploads: UploadService): ChatFeatureHandlers<'createUploadSession'> {
  return {
    async createUploadSession({ body }, ctx) {
      return ok(ctx, await uploads.createSession(callerOf(ctx), body, ctx.origin));
    },
  };
}
