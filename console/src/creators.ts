// Who made a key, in words: the signed-in user reads "You", another member of the workspace their display name and
// role ("Dana Reyes (Admin)") from the member list, an account no longer in it "Former member", and a key made by the
// command line (no account) "Command line". The account id stays in the cell's title.
export interface MemberRow {
  account_id: string;
  display_name: string;
  role: string;
}

const roleTitle = (role: string) => role.charAt(0).toUpperCase() + role.slice(1).replace(/_/g, ' ');

export function creatorLabel(createdBy: string | null, me: string, members: readonly MemberRow[]): string {
  if (!createdBy) return 'Command line';
  if (createdBy === me) return 'You';
  const member = members.find((m) => m.account_id === createdBy);
  return member ? `${member.display_name} (${roleTitle(member.role)})` : 'Former member';
}
