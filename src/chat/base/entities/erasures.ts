// The table chat/erasure owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

/**
 * One account erasure: the audit record (who erased whom, when) and the job's state. The progress columns (step,
 * cursor, lease) are cleared when the job is done, so a finished row keeps only who, whom, when, how and its state.
 */
export const ErasureEntity = defineEntity({
  name: 'Erasure',
  tableName: 'erasures',
  properties: {
    id: p.uuid().primary(),
    accountId: reference(p.uuid().fieldName('account_id'), 'Account', 'erasures_account_id_fkey'),
    erasedBy: reference(p.uuid().fieldName('erased_by'), 'Account', 'erasures_erased_by_fkey'),
    requestedAt: p.datetime().fieldName('requested_at'),
    /** What happens to the account's messages: delete or anonymize. */
    messages: p.text(),
    /** queued, running, done or failed. */
    state: p.text(),
    /** The next step of a job not done: profile, messages, uploads; null once done. */
    step: p.text().nullable(),
    /** The last message id a messages batch handled; null before the first and once done. */
    cursor: p.uuid().nullable(),
    /** Until when a running job belongs to the worker that claimed it; null when none holds it. */
    leaseUntil: p.datetime().fieldName('lease_until').nullable(),
    finishedAt: p.datetime().fieldName('finished_at').nullable(),
  },
  // One erasure per account: a second request answers the first one's job.
  uniques: [{ name: 'erasures_account', properties: ['accountId'] }],
  indexes: [{ name: 'erasures_pending', properties: ['requestedAt'], where: "(state in ('queued', 'running'))" }],
});
export type Erasure = InferEntity<typeof ErasureEntity>;
