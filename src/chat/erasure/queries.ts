// The statements of erasure jobs: the request (the account locked and marked erased, the job row), the read of a
// job within a caller's scope, and the worker's claim, progress and finish of a job row.
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

export type ErasureMode = 'delete' | 'anonymize';
export type ErasureStep = 'profile' | 'messages' | 'uploads';
export type Scope = { moduleCode: string; customerAccountId: string } | null;

const erasureColumns = ['e.id', 'e.account_id', 'e.erased_by', 'e.requested_at', 'e.messages', 'e.state', 'e.finished_at'] as const;
const jobColumns = ['id', 'account_id', 'messages', 'step', 'cursor'] as const;

/** The account locked for its erasure: its owner and status; undefined when there is none. */
export async function lockAccountForErasure(client: SqlClient, accountId: string) {
  return firstRow(
    client,
    chatDb.selectFrom('accounts').select(['id', 'module_code', 'customer_account_id', 'status']).where('id', '=', accountId).forUpdate(),
  );
}

/** The account's erasure, if it was ever asked for. */
export async function erasureOfAccount(db: Runner, accountId: string) {
  return firstRow(db, chatDb.selectFrom('erasures as e').select(erasureColumns).where('e.account_id', '=', accountId));
}

/** Refuses the account from now on: authentication and registration read this status. */
export async function markAccountErased(client: SqlClient, accountId: string, at: Date): Promise<void> {
  await affected(client, chatDb.updateTable('accounts').set({ status: 'ERASED', updated_at: at }).where('id', '=', accountId));
}

export async function insertErasure(
  client: SqlClient,
  job: { id: string; accountId: string; erasedBy: string; messages: ErasureMode; at: Date },
): Promise<void> {
  await affected(
    client,
    chatDb.insertInto('erasures').values({
      id: job.id,
      account_id: job.accountId,
      erased_by: job.erasedBy,
      requested_at: job.at,
      messages: job.messages,
      state: 'queued',
      step: 'profile',
      cursor: null,
      lease_until: null,
      finished_at: null,
    }),
  );
}

/** An erasure whose account is within the scope (null: any); undefined otherwise. */
export async function erasureInScope(db: Runner, id: string, scope: Scope) {
  return firstRow(
    db,
    chatDb
      .selectFrom('erasures as e')
      .innerJoin('accounts as a', 'a.id', 'e.account_id')
      .select(erasureColumns)
      .where('e.id', '=', id)
      .$if(scope !== null, (q) =>
        q.where('a.module_code', '=', scope!.moduleCode).where('a.customer_account_id', '=', scope!.customerAccountId),
      ),
  );
}

/**
 * Takes the oldest job that is queued, or running under a lease that ran out (its worker stopped), and leases it
 * until `leaseUntil`. Skips rows another worker is claiming, so two workers never take the same job at once.
 */
export async function claimErasure(client: SqlClient, now: Date, leaseUntil: Date) {
  return firstRow(
    client,
    chatDb
      .updateTable('erasures')
      .set({ state: 'running', lease_until: leaseUntil })
      .where(
        'id',
        '=',
        chatDb
          .selectFrom('erasures')
          .select('id')
          .where((eb) => eb.or([eb('state', '=', 'queued'), eb.and([eb('state', '=', 'running'), eb('lease_until', '<=', now)])]))
          .orderBy('requested_at')
          .limit(1)
          .forUpdate()
          .skipLocked(),
      )
      .returning(jobColumns),
  );
}

/** The running job locked for one step: each step reads its progress here, so a step is never done twice. */
export async function lockJob(client: SqlClient, id: string) {
  return firstRow(client, chatDb.selectFrom('erasures').select(jobColumns).where('id', '=', id).where('state', '=', 'running').forUpdate());
}

/** Records a step's progress and extends the lease. */
export async function advanceJob(client: SqlClient, id: string, step: ErasureStep, cursor: string | null, leaseUntil: Date): Promise<void> {
  await affected(client, chatDb.updateTable('erasures').set({ step, cursor, lease_until: leaseUntil }).where('id', '=', id));
}

/** The step a running job is at; undefined when it is not running. */
export async function stepOf(db: Runner, id: string): Promise<ErasureStep | undefined> {
  const row = await firstRow(db, chatDb.selectFrom('erasures').select('step').where('id', '=', id).where('state', '=', 'running'));
  return (row?.step ?? undefined) as ErasureStep | undefined;
}

/** Ends the lease now: the job stays running and the next run claims it again. */
export async function releaseJob(client: SqlClient, id: string, at: Date): Promise<void> {
  await affected(client, chatDb.updateTable('erasures').set({ lease_until: at }).where('id', '=', id).where('state', '=', 'running'));
}

/** The job is done: its progress columns are cleared, so the row keeps who, whom, when, how and its state. */
export async function finishJob(client: SqlClient, id: string, at: Date): Promise<void> {
  await affected(
    client,
    chatDb
      .updateTable('erasures')
      .set({ state: 'done', step: null, cursor: null, lease_until: null, finished_at: at })
      .where('id', '=', id),
  );
}

export const examples: QueryExamples = {
  lockAccountForErasure: (db) => lockAccountForErasure(db, example.id),
  erasureOfAccount: (db) => erasureOfAccount(db, example.id),
  markAccountErased: (db) => markAccountErased(db, example.id, example.at),
  insertErasure: (db) =>
    insertErasure(db, { id: example.id, accountId: example.id, erasedBy: example.id, messages: 'anonymize', at: example.at }),
  erasureInScope: (db) => erasureInScope(db, example.id, { moduleCode: 'crm', customerAccountId: 'acme' }),
  claimErasure: (db) => claimErasure(db, example.at, example.at),
  lockJob: (db) => lockJob(db, example.id),
  advanceJob: (db) => advanceJob(db, example.id, 'messages', example.id, example.at),
  stepOf: (db) => stepOf(db, example.id),
  releaseJob: (db) => releaseJob(db, example.id, example.at),
  finishJob: (db) => finishJob(db, example.id, example.at),
};
