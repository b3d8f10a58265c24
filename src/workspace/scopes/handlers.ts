import type { components } from '../../../generated/types/workspace.js';
import type { WorkspaceFeatureHandlers } from '../base/handler-types.js';
import { grantingScopes, scopeCatalogue } from './catalogue.js';

type Scope = components['schemas']['Scope'];

export function scopeHandlers(): WorkspaceFeatureHandlers<'listScopes'> {
  const body = {
    items: scopeCatalogue.map((e) => ({
      scope: e.scope as Scope,
      level: e.level,
      description: e.description,
      granted_by: (e.level === 'action' ? grantingScopes(e.scope) : []) as Scope[],
    })),
  };
  return {
    async listScopes() {
      return { status: 200, body };
    },
  };
}
