// Where a workspace's warning mail (a webhook paused after failed deliveries) goes: the workspace's notification
// address when one is set, else its Owner's account e-mail; neither: nowhere, and the warning is only logged.

/** The recipient in SQL, over `workspaces ws join accounts a on a.id = ws.owner_id`. */
export const warningRecipientSql = 'coalesce(ws.notification_email, a.email)';
