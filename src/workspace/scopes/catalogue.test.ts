// The scope catalogue: the spec's Scope enum lists exactly the catalogue, every operation called with a key names
// an action scope of it, and grants() follows the three levels of the seed.
import { readFileSync } from 'node:fs';
import { grantingScopes, grants, isKnownScope, scopeCatalogue } from './catalogue.js';

const spec = JSON.parse(readFileSync(new URL('../../../generated/openapi/workspace.json', import.meta.url), 'utf8'));
const scopes = scopeCatalogue.map((e) => e.scope);

test('the spec publishes exactly the catalogue, in its order', () => {
  expect(spec.components.schemas.Scope.enum).toEqual(scopes);
  expect(new Set(scopes).size).toBe(scopes.length);
});

/** Every operation of the spec with the scope it requires, split by whether it is called with a key (svc-key). */
function operationsByKeyUse(): { keyOps: Array<{ id: string; required: unknown }>; otherOps: Array<{ id: string; required: unknown }> } {
  const ops = (Object.values(spec.paths) as Array<Record<string, any>>).flatMap((item) =>
    Object.values(item).map((op) => ({
      id: op.operationId as string,
      required: op['x-required-scope'] as unknown,
      withKey: (op.security ?? []).flatMap((s: object) => Object.keys(s)).includes('svc-key') as boolean,
    })),
  );
  const strip = ({ id, required }: { id: string; required: unknown }) => ({ id, required });
  return { keyOps: ops.filter((o) => o.withKey).map(strip), otherOps: ops.filter((o) => !o.withKey).map(strip) };
}

const levelOf = (scope: unknown) => scopeCatalogue.find((e) => e.scope === scope)?.level;

test('every key operation names an action scope of the catalogue; no other operation names one', () => {
  const { keyOps, otherOps } = operationsByKeyUse();
  expect(keyOps.length).toBeGreaterThan(0);
  expect(keyOps.map(({ id, required }) => ({ id, type: typeof required, level: levelOf(required) }))).toEqual(
    keyOps.map(({ id }) => ({ id, type: 'string', level: 'action' })),
  );
  expect(otherOps.map(({ id, required }) => ({ id, required }))).toEqual(otherOps.map(({ id }) => ({ id, required: undefined })));
});

test('the catalogue covers every family of the seed at the three levels', () => {
  expect(scopes.filter((s) => scopeCatalogue.find((e) => e.scope === s)?.level === 'workspace')).toEqual([
    'read-only',
    'read-write',
    'admin',
  ]);
  expect(scopes.filter((s) => scopeCatalogue.find((e) => e.scope === s)?.level === 'module')).toEqual([
    'crm.*',
    'crm.read',
    'inbox.*',
    'inbox.send',
    'hr.*',
    'hr.read',
    'ticket.*',
    'approval.*',
    'webhook.*',
  ]);
  for (const action of [
    'crm.leads.create',
    'crm.deals.read',
    'inbox.messages.send',
    'crm.companies.update',
    'crm.quotations.read',
    'inbox.conversations.update',
    'hr.employees.create',
    'hr.attendance.read',
    'hr.leaves.update',
    'ticket.tickets.delete',
    'ticket.comments.create',
    'approval.approvals.create',
    'approval.decisions.create',
    'webhook.webhooks.delete',
  ]) {
    expect(isKnownScope(action)).toBe(true);
  }
  expect(isKnownScope('crm.leads.send')).toBe(false);
  expect(isKnownScope('crm')).toBe(false);
});

describe('grants', () => {
  test('an action scope grants itself only', () => {
    expect(grants(['crm.leads.create'], 'crm.leads.create')).toBe(true);
    expect(grants(['crm.leads.create'], 'crm.leads.read')).toBe(false);
    expect(grants(['crm.deals.read'], 'crm.leads.read')).toBe(false);
  });
  test('workspace levels: read-only reads everything, read-write and admin everything else', () => {
    expect(grants(['read-only'], 'crm.leads.read')).toBe(true);
    expect(grants(['read-only'], 'webhook.webhooks.read')).toBe(true);
    expect(grants(['read-only'], 'crm.leads.create')).toBe(false);
    expect(grants(['read-only'], 'inbox.messages.send')).toBe(false);
    for (const level of ['read-write', 'admin']) {
      expect(grants([level], 'crm.leads.delete')).toBe(true);
      expect(grants([level], 'inbox.messages.send')).toBe(true);
      expect(grants([level], 'webhook.webhooks.read')).toBe(true);
    }
  });
  test('managing webhooks takes webhook.* (or its actions) or admin; read-write no longer does', () => {
    for (const action of ['create', 'update', 'delete']) {
      expect(grants(['read-write'], `webhook.webhooks.${action}`)).toBe(false);
      expect(grants(['admin'], `webhook.webhooks.${action}`)).toBe(true);
      expect(grants(['webhook.*'], `webhook.webhooks.${action}`)).toBe(true);
    }
    expect(grantingScopes('webhook.webhooks.create')).toEqual(['admin', 'webhook.*']);
  });
  test('module levels: module.* its module only; crm.read and hr.read reads; inbox.send sending only', () => {
    expect(grants(['crm.*'], 'crm.leads.update')).toBe(true);
    expect(grants(['crm.*'], 'hr.employees.read')).toBe(false);
    expect(grants(['crm.read'], 'crm.deals.read')).toBe(true);
    expect(grants(['crm.read'], 'crm.deals.create')).toBe(false);
    expect(grants(['crm.read'], 'hr.leaves.read')).toBe(false);
    expect(grants(['hr.read'], 'hr.leaves.read')).toBe(true);
    expect(grants(['hr.read'], 'hr.leaves.update')).toBe(false);
    expect(grants(['inbox.send'], 'inbox.messages.send')).toBe(true);
    expect(grants(['inbox.send'], 'inbox.messages.read')).toBe(false);
    expect(grants(['inbox.send'], 'inbox.conversations.update')).toBe(false);
    expect(grants(['webhook.*'], 'webhook.webhooks.create')).toBe(true);
  });
  test('grantingScopes lists the broader scopes of an action, for the 403 message', () => {
    expect(grantingScopes('crm.leads.read')).toEqual(['read-only', 'read-write', 'admin', 'crm.*', 'crm.read']);
    expect(grantingScopes('inbox.messages.send')).toEqual(['read-write', 'admin', 'inbox.*', 'inbox.send']);
  });
});
