// Finds the mentions a text may hold, before any lookup: `@username`, the id form `<@accountId>` a client's picker
// inserts, and `@all` / `@here`. Offsets and lengths are in UTF-16 code units, as JavaScript strings count them.

export type MentionKind = 'user' | 'all' | 'here';

/** A mention as written; the send statement keeps it only when it names a member (or the sender may notify all). */
export interface MentionCandidate {
  /** UTF-16 offset of the `@` (or of the `<` of the id form). */
  o: number;
  /** UTF-16 length of the whole mention. */
  l: number;
  k: MentionKind;
  /** A username, lower-cased; null for the id form and for @all / @here. */
  n: string | null;
  /** An account id, lower-cased; null for @username and for @all / @here. */
  a: string | null;
}

// `<@uuid>`, or `@name` not preceded by a name character (so mail addresses are not mentions) and not followed by
// one (so a name longer than a username is no mention of its first 32 characters).
const mentionPattern =
  /<@([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})>|(?<![A-Za-z0-9._-])@([A-Za-z0-9][A-Za-z0-9._-]{1,31})(?![A-Za-z0-9._-])/g;

/** The most mentions one text may resolve; the rest of a longer list stays plain text. */
export const MAX_MENTIONS = 100;

/** Whether the text may hold a mention at all: the send's hot path skips every mention step when it does not. */
export const mayMention = (text: string): boolean => text.includes('@');

export function mentionCandidates(text: string): MentionCandidate[] {
  if (!mayMention(text)) return [];
  const found: MentionCandidate[] = [];
  for (const m of text.matchAll(mentionPattern)) {
    if (found.length === MAX_MENTIONS) break;
    if (m[1] !== undefined) {
      found.push({ o: m.index, l: m[0].length, k: 'user', n: null, a: m[1].toLowerCase() });
      continue;
    }
    // A sentence's full stop after a name is not part of it: "ask @ann." mentions ann.
    let end = m[2]!.length;
    while (end > 0 && m[2]![end - 1] === '.') end--;
    const name = m[2]!.slice(0, end);
    if (name.length < 2) continue;
    const lower = name.toLowerCase();
    const k: MentionKind = lower === 'all' ? 'all' : lower === 'here' ? 'here' : 'user';
    found.push({ o: m.index, l: name.length + 1, k, n: k === 'user' ? lower : null, a: null });
  }
  return found;
}
