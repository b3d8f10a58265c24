// The scope catalogue of convention B at its three levels: workspace (read-only, read-write, admin), module
// (crm.*, crm.read, inbox.*, inbox.send, hr.*, hr.read, ticket.*, approval.*, webhook.*) and action
// (<module>.<resource>.<verb>). Operations require one action scope (x-required-scope in the spec); grants() says
// which held scopes cover it. spec/workspace/scopes.tsp lists the same names; catalogue.test.ts keeps them equal.

export type Verb = 'read' | 'create' | 'update' | 'delete' | 'send';
export type ScopeLevel = 'workspace' | 'module' | 'action';

export interface ScopeEntry {
  scope: string;
  level: ScopeLevel;
  description: string;
}

/**
 * Every family of the seed and its verbs. read is GET, create POST, update PATCH (and the actions of a resource
 * such as convert, assign, close, approve, pause), delete DELETE; posting a message is send.
 */
export const families: Record<string, Record<string, readonly Verb[]>> = {
  crm: {
    leads: ['read', 'create', 'update', 'delete'],
    deals: ['read', 'create', 'update', 'delete'],
    contacts: ['read', 'create', 'update', 'delete'],
    companies: ['read', 'create', 'update', 'delete'],
    quotations: ['read', 'create', 'update', 'delete'],
  },
  inbox: {
    conversations: ['read', 'create', 'update'],
    messages: ['read', 'send'],
  },
  hr: {
    employees: ['read', 'create', 'update'],
    attendance: ['read', 'create', 'update'],
    leaves: ['read', 'create', 'update'],
  },
  ticket: {
    tickets: ['read', 'create', 'update', 'delete'],
    comments: ['read', 'create'],
  },
  approval: {
    approvals: ['read', 'create', 'update'],
    decisions: ['read', 'create'],
  },
  webhook: {
    webhooks: ['read', 'create', 'update', 'delete'],
  },
};

const verbWords: Record<Verb, string> = { read: 'Read', create: 'Create', update: 'Change', delete: 'Delete', send: 'Send' };

/** Module scopes that grant part of a module: which verbs (every resource) or which actions. */
const partialModuleScopes: Record<string, { module: string; verbs?: Verb[]; actions?: string[]; description: string }> = {
  'crm.read': { module: 'crm', verbs: ['read'], description: 'CRM read-only (/leads, /deals, /contacts, /companies, /quotations)' },
  'inbox.send': { module: 'inbox', actions: ['inbox.messages.send'], description: 'Send messages only' },
  'hr.read': { module: 'hr', verbs: ['read'], description: 'HR read-only (/employees, /attendance, /leaves)' },
};

const moduleDescriptions: Record<string, string> = {
  crm: 'All of CRM (/leads, /deals, /contacts, /companies, /quotations)',
  inbox: 'All of the inbox (/conversations, /messages)',
  hr: 'All of HR (/employees, /attendance, /leaves)',
  ticket: 'Tickets (/tickets, /tickets/{id}/comments)',
  approval: 'Approvals (/approvals, /approvals/{id}/decisions)',
  webhook: 'Webhook management (/webhooks); also granted by admin, not by read-write',
};

function build(): ScopeEntry[] {
  const entries: ScopeEntry[] = [
    { scope: 'read-only', level: 'workspace', description: 'GET on every module' },
    {
      scope: 'read-write',
      level: 'workspace',
      description: 'GET, POST, PATCH and DELETE on every module; webhooks read only (managing them needs webhook.* or admin)',
    },
    { scope: 'admin', level: 'workspace', description: 'read-write plus administration (users and roles) and webhook management' },
  ];
  for (const module of Object.keys(families)) {
    entries.push({ scope: `${module}.*`, level: 'module', description: moduleDescriptions[module]! });
    for (const [scope, partial] of Object.entries(partialModuleScopes)) {
      if (partial.module === module) entries.push({ scope, level: 'module', description: partial.description });
    }
  }
  for (const [module, resources] of Object.entries(families)) {
    for (const [resource, verbs] of Object.entries(resources)) {
      for (const verb of verbs)
        entries.push({
          scope: `${module}.${resource}.${verb}`,
          level: 'action',
          description: `${verbWords[verb]} ${resource} (${module})`,
        });
    }
  }
  return entries;
}

export const scopeCatalogue: readonly ScopeEntry[] = build();

const known = new Set(scopeCatalogue.map((e) => e.scope));

export function isKnownScope(scope: string): boolean {
  return known.has(scope);
}

/**
 * Whether the held scopes grant an action scope: itself, its module's `.*`, a partial module scope that covers it
 * (crm.read, hr.read, inbox.send), read-only for reads, admin for everything, read-write for everything but
 * managing webhooks: a webhook redirects or stops the workspace's whole event flow, which the seed leaves to Owners
 * and Admins, so a key needs webhook.* (or admin) for it.
 */
export function grants(held: readonly string[], required: string): boolean {
  if (held.includes(required)) return true;
  const [module, , verb] = required.split('.') as [string, string, Verb];
  if (held.includes('admin')) return true;
  if (held.includes('read-write') && (module !== 'webhook' || verb === 'read')) return true;
  if (verb === 'read' && held.includes('read-only')) return true;
  if (held.includes(`${module}.*`)) return true;
  for (const scope of held) {
    const partial = partialModuleScopes[scope];
    if (!partial || partial.module !== module) continue;
    if (partial.verbs?.includes(verb) || partial.actions?.includes(required)) return true;
  }
  return false;
}

/** The held scopes that would grant `required`, broadest first: for the message of a 403. */
export function grantingScopes(required: string): string[] {
  return scopeCatalogue.map((e) => e.scope).filter((s) => s !== required && grants([s], required));
}
