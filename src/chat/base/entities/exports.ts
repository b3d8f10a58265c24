// The tables chat/exports owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const AccountExportEntity = defineEntity({
  name: 'AccountExport',
  tableName: 'account_exports',
  properties: {
    id: p.uuid().primary(),
    accountId: reference(p.uuid().fieldName('account_id'), 'Account', 'account_exports_account_id_fkey'),
    state: p.text(),
    createdAt: p.datetime().fieldName('created_at'),
    /** Until when the worker that claimed a running export holds it; after that another worker takes it over. */
    leaseUntil: p.datetime().fieldName('lease_until').nullable(),
    attempts: p.integer().defaultRaw('0'),
    completedAt: p.datetime().fieldName('completed_at').nullable(),
    size: p.bigint('number').nullable(),
    error: p.text().nullable(),
  },
  indexes: [
    { name: 'account_exports_pending', properties: ['createdAt'], where: "(state = ANY (ARRAY['queued'::text, 'running'::text]))" },
    { name: 'account_exports_created', properties: ['createdAt'] },
  ],
  uniques: [
    {
      name: 'account_exports_one_running',
      properties: ['accountId'],
      where: "(state = ANY (ARRAY['queued'::text, 'running'::text]))",
    },
  ],
  checks: [
    {
      name: 'account_exports_state_check',
      expression: "((state = ANY (ARRAY['queued'::text, 'running'::text, 'done'::text, 'failed'::text])))",
    },
  ],
});
export type AccountExport = InferEntity<typeof AccountExportEntity>;
