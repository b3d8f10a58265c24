// The statements of a workspace's plan: the workspaces table is the shared core's (the chat's tables do not list it).
import type { Selectable } from 'kysely';
import { firstRow, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { coreDb, type CoreTables } from '../../core/tables.js';
import type { SvcPlan } from '../../core/workspaces/svc-plans.js';

const planColumns = ['id', 'svc_plan', 'svc_rate_per_hour', 'svc_rate_per_minute'] as const;

export type PlanRow = Pick<Selectable<CoreTables['workspaces']>, (typeof planColumns)[number]>;

/** The workspace's plan columns, or undefined when there is no such workspace. */
export async function planOf(db: Runner, workspaceId: string): Promise<PlanRow | undefined> {
  return firstRow(db, coreDb.selectFrom('workspaces').select(planColumns).where('id', '=', workspaceId));
}

/** Writes the whole plan; undefined when there is no such workspace. */
export async function writePlan(
  db: Runner,
  workspaceId: string,
  plan: { plan: SvcPlan; ratePerHour: number | null; burstPerMinute: number | null; at: Date },
): Promise<PlanRow | undefined> {
  return firstRow(
    db,
    coreDb
      .updateTable('workspaces')
      .set({
        svc_plan: plan.plan,
        svc_rate_per_hour: plan.ratePerHour,
        svc_rate_per_minute: plan.burstPerMinute,
        updated_at: plan.at,
      })
      .where('id', '=', workspaceId)
      .returning(planColumns),
  );
}

export const examples: QueryExamples = {
  planOf: (db) => planOf(db, example.id),
  writePlan: (db) => writePlan(db, example.id, { plan: 'enterprise', ratePerHour: 100, burstPerMinute: 10, at: example.at }),
};
