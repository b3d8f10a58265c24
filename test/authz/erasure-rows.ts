// Rows of the authorization table for account erasure (see chat-rows.ts for the defaults). Erasure is account
// administration: the platform administrator for every account, a module's SERVICE account for those of its module
// and customer (another module's: 404, like a missing one), USER accounts refused before the body is read. Every
// row erases a throwaway account of its own, never one the world's other rows stand on.
import { newId } from '../../src/platform/ids.js';
import { refusal, type Persona } from './personas.js';
import { row, type Row } from './row.js';
import type { World } from './world.js';

const USERS: Persona[] = ['nonMember', 'member', 'admin', 'owner'];
const refused = Object.fromEntries(USERS.map((p) => [p, refusal(403, 'account_admin_required')]));

async function asServices(w: World): Promise<void> {
  await w.platform.db.query(`update accounts set account_type = 'SERVICE' where id = any($1::uuid[])`, [
    USERS.map((p) => w.accountOf(p)!.id),
  ]);
}

/** A throwaway account of the world's module, or (foreign) of another module, with an erasure row when asked. */
async function target(w: World, options: { foreign?: boolean; erasure?: boolean } = {}): Promise<{ accountId: string; erasureId: string }> {
  const tenant = options.foreign ? await w.platform.tenant() : w.tenant;
  const account = await tenant.account();
  const erasureId = newId();
  if (options.erasure) {
    await w.platform.db.query(
      `insert into erasures (id, account_id, erased_by, requested_at, messages, state) values ($1, $2, $2, now(), 'anonymize', 'done')`,
      [erasureId, account.id],
    );
  }
  return { accountId: account.id, erasureId };
}

const ops = [
  {
    operationId: 'eraseAccount',
    method: 'POST' as const,
    path: '/api/v1/admin/accounts/{accountId}/erase',
    erasure: false,
    foreignRefusal: refusal(404, 'account_not_found'),
    request: (t: { accountId: string }) => ({ params: { accountId: t.accountId }, body: { messages: 'anonymize' } }),
  },
  {
    operationId: 'getErasure',
    method: 'GET' as const,
    path: '/api/v1/admin/erasures/{id}',
    erasure: true,
    foreignRefusal: refusal(404, 'erasure_not_found'),
    request: (t: { erasureId: string }) => ({ params: { id: t.erasureId } }),
  },
];

export const erasureRows: Row[] = ops.flatMap((op) => {
  const base = { operationId: op.operationId, method: op.method, path: op.path, audience: 'platformAdmin' as const };
  return [
    row({ ...base, outcomes: refused, setup: (w) => target(w, { erasure: op.erasure }), request: (_w, _p, t) => op.request(t) }),
    row({
      ...base,
      variant: 'SERVICE accounts of the module',
      allowed: [...USERS, 'platformAdmin'],
      setup: async (w) => {
        await asServices(w);
        return target(w, { erasure: op.erasure });
      },
      request: (_w, _p, t) => op.request(t),
    }),
    row({
      ...base,
      variant: "SERVICE accounts, another module's account",
      outcomes: Object.fromEntries(USERS.map((p) => [p, op.foreignRefusal])),
      setup: async (w) => {
        await asServices(w);
        return target(w, { foreign: true, erasure: op.erasure });
      },
      request: (_w, _p, t) => op.request(t),
    }),
  ];
});
