// The scope catalogue and presets of convention A. A scope is group:action; group:* grants read and write.

export interface ScopeEntry {
  id: string;
  group: string;
  action: string;
  description: string;
}

const entries: Array<[string, string]> = [
  ['conversations:read', 'Read conversations'],
  ['conversations:write', 'Update conversations'],
  ['messages:read', 'Read messages'],
  ['messages:send', 'Send messages'],
  ['channels:read', 'View connected channels'],
  ['channels:manage', 'Manage connected channels'],
  ['ai:read', 'View the AI configuration'],
  ['ai:invoke', 'Invoke AI replies'],
  ['kb:read', 'Read the knowledge base'],
  ['kb:write', 'Write the knowledge base'],
  ['agents:read', 'View AI agents'],
  ['agents:manage', 'Manage AI agents'],
  ['webhooks:read', 'View webhooks'],
  ['webhooks:manage', 'Manage webhooks'],
  ['crm_leads:read', 'Read leads'],
  ['crm_leads:write', 'Create and update leads'],
  ['crm_deals:read', 'Read deals'],
  ['crm_deals:write', 'Create and update deals'],
  ['crm_contacts:read', 'Read contacts'],
  ['crm_contacts:write', 'Create and update contacts'],
  ['crm_companies:read', 'Read companies'],
  ['crm_companies:write', 'Create and update companies'],
  ['crm_activities:read', 'Read activities'],
  ['crm_activities:write', 'Create activities (activities cannot be changed)'],
  ['crm_invoices:read', 'Read invoices'],
  ['crm_quotations:read', 'Read quotations'],
  ['crm_payments:read', 'Read payments'],
  ['crm_products:read', 'Read products'],
  ['crm_subscriptions:read', 'Read subscriptions'],
];

export const scopeCatalogue: ScopeEntry[] = entries.map(([id, description]) => {
  const [group, action] = id.split(':') as [string, string];
  return { id, group, action, description };
});

const groups = new Set(scopeCatalogue.map((s) => s.group));
const known = new Set(scopeCatalogue.map((s) => s.id));

export const scopePresets: Record<string, string[]> = {
  'Read-only inbox': ['conversations:read', 'messages:read'],
  'Send message': ['conversations:read', 'messages:read', 'messages:send'],
  'Conversations + AI': ['conversations:*', 'messages:*', 'ai:read', 'ai:invoke'],
  'KB read': ['kb:read'],
  'Webhooks read': ['webhooks:read'],
  'CRM read all': ['crm_leads:read', 'crm_deals:read', 'crm_contacts:read', 'crm_companies:read', 'crm_activities:read'],
  'CRM lead read and write': ['crm_leads:read', 'crm_leads:write'],
  'CRM sales full': ['crm_leads:*', 'crm_deals:*', 'crm_contacts:*', 'crm_companies:*', 'crm_activities:*'],
  'CRM finance read': ['crm_invoices:read', 'crm_quotations:read', 'crm_payments:read'],
};

/** True for a catalogue scope or group:* of a catalogue group. */
export function isKnownScope(scope: string): boolean {
  if (known.has(scope)) return true;
  const [group, action, ...rest] = scope.split(':');
  return rest.length === 0 && action === '*' && group !== undefined && groups.has(group);
}

/** Whether a key's scopes grant the required one: exactly, or through group:*. */
export function grants(scopes: readonly string[], required: string): boolean {
  if (scopes.includes(required)) return true;
  const group = required.split(':')[0];
  return scopes.includes(`${group}:*`);
}

/** What a key list shows: at most 3 labels, the rest collapsed into +N. */
export function scopeLabels(scopes: readonly string[]): string[] {
  return scopes.length <= 3 ? [...scopes] : [...scopes.slice(0, 3), `+${scopes.length - 3}`];
}
