import { platformAdminOf } from '../base/context.js';
import { created, ok, okList } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { ModuleService } from './service.js';

export function moduleHandlers(
  modules: ModuleService,
): ChatFeatureHandlers<'listModules' | 'createModule' | 'listCustomerKeys' | 'registerCustomerKey' | 'refreshCustomerKeys'> {
  return {
    async listModules(_input, ctx) {
      platformAdminOf(ctx);
      return okList(ctx, await modules.list());
    },
    async createModule({ body }, ctx) {
      platformAdminOf(ctx);
      const module = await modules.create(body.code, body.name);
      return created(ctx, module, `/api/v1/admin/modules/${module.code}`);
    },
    async listCustomerKeys({ params }, ctx) {
      platformAdminOf(ctx);
      return okList(ctx, await modules.listKeys(params.code, params.customerAccountId));
    },
    async registerCustomerKey({ params, body }, ctx) {
      platformAdminOf(ctx);
      const key = await modules.registerKey(params.code, params.customerAccountId, body);
      return created(ctx, key, `/api/v1/admin/modules/${params.code}/customers/${encodeURIComponent(params.customerAccountId)}/keys`);
    },
    async refreshCustomerKeys({ params }, ctx) {
      platformAdminOf(ctx);
      await modules.refreshKeys(params.code, params.customerAccountId);
      return ok(ctx, { status: 'refreshed' });
    },
  };
}
