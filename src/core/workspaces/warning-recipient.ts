// Where a workspace's warning mail (a webhook paused after failed deliveries) goes: the workspace's notification
// address when one is set, else its Owner's account e-mail; neither: nowhere, and the warning is only logged.
import { sql } from 'kysely';

/** The recipient, in a statement over `workspaces as ws` joined with its Owner's `accounts as a`. */
export const warningRecipient = sql<string | null>`coalesce(${sql.ref('ws.notification_email')}, ${sql.ref('a.email')})`;
