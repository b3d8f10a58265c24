// The scope catalogue and presets of the partner API (convention A): what a key may be granted. A scope is
// group:action; group:* grants both actions of its group. The server checks keys against this same list.
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

export const scopeCatalogue: readonly ScopeEntry[] = entries.map(([id, description]) => {
  const [group, action] = id.split(':') as [string, string];
  return { id, group, action, description };
});

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
