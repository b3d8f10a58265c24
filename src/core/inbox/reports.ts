// Inbox reports: per UTC day and channel, the conversations opened and closed, the first-response time of the
// conversations opened that day (opened → first outbound message) and the resolution time of the conversations
// closed that day (opened → closed), each as median and mean seconds over the conversations that have one.
import type { Partition } from '../crm/queries.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { inboxReportRows } from './report-queries.js';
import type { ChannelKind } from './views.js';

export interface InboxReportRow {
  day: string;
  channel: ChannelKind;
  opened: number;
  closed: number;
  first_response_count: number;
  first_response_median_seconds: number | null;
  first_response_mean_seconds: number | null;
  resolution_count: number;
  resolution_median_seconds: number | null;
  resolution_mean_seconds: number | null;
}

const seconds = (value: number | null) => (value === null ? null : Math.round(Number(value) * 1000) / 1000);

/** Days from..to (both included, YYYY-MM-DD, UTC); a channel filter narrows to one channel. Ordered by day, channel. */
export async function inboxReport(
  db: Queryable,
  part: Partition,
  range: { from: string; to: string; channel?: string },
): Promise<InboxReportRow[]> {
  const found = await inboxReportRows(db, part, range);
  return found.map((r) => ({
    day: r.day,
    // The schemas of both APIs allow conversations only on these channels.
    channel: r.channel as ChannelKind,
    opened: Number(r.opened ?? 0),
    closed: Number(r.closed ?? 0),
    first_response_count: Number(r.fr_count ?? 0),
    first_response_median_seconds: seconds(r.fr_median),
    first_response_mean_seconds: seconds(r.fr_mean),
    resolution_count: Number(r.res_count ?? 0),
    resolution_median_seconds: seconds(r.res_median),
    resolution_mean_seconds: seconds(r.res_mean),
  }));
}
