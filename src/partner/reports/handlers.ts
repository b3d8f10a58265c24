// /api/v1/reports/inbox: the inbox report of the key's workspace and environment, read with conversations:read
// (it summarises conversations, which that scope already reads one by one).
import { inboxReport } from '../../core/inbox/reports.js';
import { keyOf } from '../base/context.js';
import type { PartnerDeps } from '../base/deps.js';
import { partnerErrors } from '../base/errors.js';
import type { PartnerFeatureHandlers } from '../base/handler-types.js';

/** The longest range one report covers, in days. */
export const maxReportDays = 366;

/** A YYYY-MM-DD date that exists, as its UTC midnight in milliseconds; 400 naming the field otherwise. */
function dayOf(field: string, value: string): number {
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) {
    throw partnerErrors.badInput(field, 'is not a calendar date (YYYY-MM-DD)');
  }
  return ms;
}

export function reportHandlers(deps: PartnerDeps): PartnerFeatureHandlers<'getInboxReport'> {
  return {
    async getInboxReport({ query }, ctx) {
      const from = dayOf('query.from', query.from);
      const to = dayOf('query.to', query.to);
      if (to < from) throw partnerErrors.badInput('query.to', 'is before query.from');
      if ((to - from) / 86_400_000 + 1 > maxReportDays)
        throw partnerErrors.badInput('query.to', `is more than ${maxReportDays} days after query.from`);
      const key = keyOf(ctx);
      const rows = await inboxReport(deps.sql, { workspaceId: key.workspaceId, environment: key.environment }, query);
      return {
        status: 200,
        body: {
          object: 'inbox.report',
          from: query.from,
          to: query.to,
          channel: query.channel ?? null,
          data: rows.map((r) => ({ object: 'inbox.report_row' as const, ...r })),
        },
      };
    },
  };
}
