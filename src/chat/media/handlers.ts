import { callerOf } from '../base/context.js';
import { ok } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { UploadService } from './sessions.js';

export function uploadHandlers(uploads: UploadService): ChatFeatureHandlers<'createUploadSession'> {
  return {
    async createUploadSession({ body }, ctx) {
      return ok(ctx, await uploads.createSession(callerOf(ctx), body, ctx.origin));
    },
  };
}
