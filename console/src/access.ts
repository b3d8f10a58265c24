// Which settings pages a user sees. Convention A's key page follows the API Keys cells of the user's role (View to
// open it, Create and Delete for its buttons); convention B's pages (svc_ keys, their audit log, webhooks) are for
// Owner and Admin only: every other role is a "Member" and sees none of them. The server refuses the same anyway.
export interface Cells {
  view: boolean;
  create: boolean;
  delete: boolean;
}

export interface WorkspaceInfo {
  id: string;
  name: string;
  plan: string;
  external_api_enabled: boolean;
  my_role: string | null;
}

export type PageId = 'api-keys' | 'svc-keys' | 'audit' | 'webhooks';

export function isOwnerOrAdmin(workspace: WorkspaceInfo): boolean {
  return workspace.my_role === 'owner' || workspace.my_role === 'admin';
}

export function pagesFor(workspace: WorkspaceInfo, cells: Cells): PageId[] {
  const pages: PageId[] = [];
  if (cells.view) pages.push('api-keys');
  if (isOwnerOrAdmin(workspace)) pages.push('svc-keys', 'audit', 'webhooks');
  return pages;
}
