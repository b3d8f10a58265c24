// Where a workspace's warning mail (a webhook paused after failed deliveries) goes: always its Owner's account e-mail,
// and the workspace's notification address as well when one is set (an additional recipient, not a replacement);
// neither: nowhere, and the warning is only logged.

/** The addresses a warning goes to, the Owner's first; an address given twice is kept once. */
export function warningRecipients(ownerEmail: string | null, notificationEmail: string | null): string[] {
  const addresses = [ownerEmail, notificationEmail].filter((a): a is string => a !== null && a !== '');
  return [...new Set(addresses)];
}
