// Who made a key, in words. The workspace documents carry the creator's account id only, and no operation there
// turns an account id into a display name; the member list gives each member's role. So the signed-in user reads
// "You", another member reads as their role in the workspace ("Admin"), an account no longer in it as "Former member", and a
// key made by the command line (no account) as "Command line". The account id stays in the cell's title.
export interface MemberRow {
  account_id: string;
  role: string;
}

const roleTitle = (role: string) => role.charAt(0).toUpperCase() + role.slice(1).replace(/_/g, ' ');

export function creatorLabel(createdBy: string | null, me: string, members: readonly MemberRow[]): string {
  if (!createdBy) return 'Command line';
  if (createdBy === me) return 'You';
  const member = members.find((m) => m.account_id === createdBy);
  return member ? roleTitle(member.role) : 'Former member';
}
