// The three descriptive endpoints: the resource index, the scope catalogue and the calling key's identity.
import type { components } from '../../../generated/types/partner.js';
import type { KeyPrincipal } from '../base/context.js';
import { scopeCatalogue, scopePresets } from '../scopes/catalogue.js';
import { crmBasePath, crmResources } from '../../core/crm/resources.js';

type Schemas = components['schemas'];

export function resourceIndex(): Schemas['ResourceInfoList'] {
  return {
    object: 'list',
    data: crmResources.map((def) => ({
      object: 'crm.resource',
      id: def.id,
      path: `${crmBasePath}/${def.id}`,
      record_object: def.object,
      writable: def.writable,
      read_scope: def.readScope,
      write_scope: def.writeScope,
      status_filter: def.statusField !== null,
    })),
    has_more: false,
    next_cursor: null,
  };
}

export function scopeCatalogueView(): Schemas['Crm.ScopeCatalogue'] {
  return {
    object: 'scope_catalogue',
    scopes: scopeCatalogue.map((s) => ({ object: 'scope', id: s.id, group: s.group, action: s.action, description: s.description })),
    presets: Object.entries(scopePresets).map(([name, scopes]) => ({ object: 'scope_preset', id: name, scopes: [...scopes] })),
  };
}

export function identityView(key: KeyPrincipal): Schemas['Crm.ApiIdentity'] {
  return { object: 'crm.api_identity', tenant_id: key.workspaceId, actor_type: 'api_key', key_prefix: key.prefix, scopes: [...key.scopes] };
}
