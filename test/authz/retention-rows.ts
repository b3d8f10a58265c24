// Authorization rows of message retention. The customer's default: a platform administrator for any customer, a
// module's SERVICE account for its own only (another customer: 403 forbidden), USER accounts 403
// account_admin_required before the body is read. A room's own: read by its members, set by its owners and admins.
import { refusal, type Persona } from './personas.js';
import { row, type Row } from './row.js';
import type { World } from './world.js';

const USERS: Persona[] = ['nonMember', 'member', 'admin', 'owner'];
const each = (r: ReturnType<typeof refusal>) => Object.fromEntries(USERS.map((p) => [p, r]));

const asServices = async (w: World) => {
  await w.platform.db.query(`update accounts set account_type = 'SERVICE' where id = any($1::uuid[])`, [
    USERS.map((p) => w.accountOf(p)!.id),
  ]);
};

const customerOps = [
  { operationId: 'getCustomerRetention', method: 'GET' as const, body: undefined },
  { operationId: 'setCustomerRetention', method: 'PUT' as const, body: { days: 30 } },
];

function customerRows(): Row[] {
  return customerOps.flatMap((op) => {
    const base = { operationId: op.operationId, method: op.method, path: '/api/v1/admin/retention', audience: 'platformAdmin' as const };
    const own = (w: World) => ({ query: { moduleCode: w.tenant.moduleCode, customerAccountId: w.tenant.customer }, body: op.body });
    return [
      row({ ...base, outcomes: each(refusal(403, 'account_admin_required')), request: own }),
      row({ ...base, variant: 'SERVICE accounts of the customer', allowed: [...USERS, 'platformAdmin'], setup: asServices, request: own }),
      row({
        ...base,
        variant: 'SERVICE accounts, another customer',
        outcomes: each(refusal(403, 'forbidden')),
        setup: async (w) => {
          await asServices(w);
          return w.platform.tenant();
        },
        request: (_w, _p, other) => ({ query: { moduleCode: other.moduleCode, customerAccountId: other.customer }, body: op.body }),
      }),
    ];
  });
}

export const retentionRows: Row[] = [
  ...customerRows(),
  row({
    operationId: 'getRoomRetention',
    method: 'GET',
    path: '/api/v1/rooms/{roomId}/retention',
    audience: 'room',
    request: (w) => ({ params: { roomId: w.roomId } }),
  }),
  row({
    operationId: 'setRoomRetention',
    method: 'PUT',
    path: '/api/v1/rooms/{roomId}/retention',
    audience: 'room',
    allowed: ['admin', 'owner'],
    request: (w) => ({ params: { roomId: w.roomId }, body: { days: 30 } }),
  }),
];
