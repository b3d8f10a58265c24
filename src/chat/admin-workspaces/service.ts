// Platform administration of a workspace's plan on the workspace API (workspaces.svc_plan) and, for enterprise, its
// contract limits. The key gates of every node cache each key's plan (GateKeyCache): a change empties them everywhere
// after it commits and before it is answered, so the next request on any node is limited by the new plan.
import type { GateKeyCache } from '../../platform/gate-key-cache.js';
import { limitsOf, type SvcPlan } from '../../core/workspaces/svc-plans.js';
import type { ChatDeps } from '../deps.js';
import { chatErrors } from '../errors.js';

export interface WorkspacePlanView {
  workspaceId: string;
  plan: SvcPlan;
  contract: { ratePerHour: number | null; burstPerMinute: number | null } | null;
  limits: { ratePerHour: number; burstPerMinute: number };
}

export interface PlanChange {
  plan: SvcPlan;
  ratePerHour?: number;
  burstPerMinute?: number;
}

interface PlanRow {
  id: string;
  svc_plan: SvcPlan;
  svc_rate_per_hour: number | null;
  svc_rate_per_minute: number | null;
}

function planView(row: PlanRow): WorkspacePlanView {
  const limits = limitsOf(row.svc_plan, row.svc_rate_per_hour, row.svc_rate_per_minute);
  return {
    workspaceId: row.id,
    plan: row.svc_plan,
    contract: row.svc_plan === 'enterprise' ? { ratePerHour: row.svc_rate_per_hour, burstPerMinute: row.svc_rate_per_minute } : null,
    limits: { ratePerHour: limits.perHour, burstPerMinute: limits.perMinute },
  };
}

const workspaceNotFound = () => chatErrors.notFound('The workspace', 'workspace_not_found');

export class WorkspacePlanService {
  constructor(
    private readonly deps: Pick<ChatDeps, 'sql' | 'clock'>,
    private readonly gateKeys: Pick<GateKeyCache, 'invalidate'> | undefined,
  ) {}

  async get(workspaceId: string): Promise<WorkspacePlanView> {
    const { rows } = await this.deps.sql.query<PlanRow>(
      'select id, svc_plan, svc_rate_per_hour, svc_rate_per_minute from workspaces where id = $1',
      [workspaceId],
    );
    if (!rows[0]) throw workspaceNotFound();
    return planView(rows[0]);
  }

  /** The request is the whole plan: limits left out fall back to business's, and other plans carry none. */
  async set(workspaceId: string, change: PlanChange): Promise<WorkspacePlanView> {
    if (change.plan !== 'enterprise') {
      for (const field of ['ratePerHour', 'burstPerMinute'] as const) {
        if (change[field] !== undefined)
          throw chatErrors.invalid(`body.${field}`, 'is a contract limit: only the enterprise plan takes one');
      }
    }
    const { rows } = await this.deps.sql.query<PlanRow>(
      `update workspaces set svc_plan = $2, svc_rate_per_hour = $3, svc_rate_per_minute = $4, updated_at = $5 where id = $1
       returning id, svc_plan, svc_rate_per_hour, svc_rate_per_minute`,
      [workspaceId, change.plan, change.ratePerHour ?? null, change.burstPerMinute ?? null, this.deps.clock.now()],
    );
    if (!rows[0]) throw workspaceNotFound();
    await this.gateKeys?.invalidate();
    return planView(rows[0]);
  }
}
