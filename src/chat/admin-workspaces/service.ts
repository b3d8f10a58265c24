// Platform administration of a workspace's plan on the workspace API (workspaces.svc_plan) and, for enterprise, its
// contract limits. The key gates of every node cache each key's plan (GateKeyCache): a change empties them everywhere
// after it commits and before it is answered, so the next request on any node is limited by the new plan.
import type { GateKeyCache } from '../../platform/gate-key-cache.js';
import { limitsOf, type SvcPlan } from '../../core/workspaces/svc-plans.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { planOf, writePlan, type PlanRow } from './queries.js';

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

function planView(row: PlanRow): WorkspacePlanView {
  const plan = row.svc_plan as SvcPlan;
  const limits = limitsOf(plan, row.svc_rate_per_hour, row.svc_rate_per_minute);
  return {
    workspaceId: row.id,
    plan,
    contract: plan === 'enterprise' ? { ratePerHour: row.svc_rate_per_hour, burstPerMinute: row.svc_rate_per_minute } : null,
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
    const row = await planOf(this.deps.sql, workspaceId);
    if (!row) throw workspaceNotFound();
    return planView(row);
  }

  /** The request is the whole plan: limits left out fall back to business's, and other plans carry none. */
  async set(workspaceId: string, change: PlanChange): Promise<WorkspacePlanView> {
    if (change.plan !== 'enterprise') {
      for (const field of ['ratePerHour', 'burstPerMinute'] as const) {
        if (change[field] !== undefined)
          throw chatErrors.invalid(`body.${field}`, 'is a contract limit: only the enterprise plan takes one');
      }
    }
    const row = await writePlan(this.deps.sql, workspaceId, {
      plan: change.plan,
      ratePerHour: change.ratePerHour ?? null,
      burstPerMinute: change.burstPerMinute ?? null,
      at: this.deps.clock.now(),
    });
    if (!row) throw workspaceNotFound();
    await this.gateKeys?.invalidate();
    return planView(row);
  }
}
