// The callers the authorization table tries on every operation, from least to most privileged, and the
// outcome each one gets unless a row says otherwise.

export const PERSONAS = ['anonymous', 'unknownKey', 'deactivated', 'nonMember', 'member', 'admin', 'owner', 'platformAdmin'] as const;
export type Persona = (typeof PERSONAS)[number];

/** A refusal: the status and the chat error code. */
export interface Refusal {
  status: number;
  code: string;
}

/** 'ok': any 2xx. 'skip': the persona is not called (the row says why). */
export type Outcome = 'ok' | 'skip' | Refusal;

/**
 * Who an operation is for:
 * - public: health probes, no authentication at all;
 * - caller: any authenticated active account (the caller's own rooms, get-or-create rooms, badges);
 * - room: members of the world's room; a non-member (a platform administrator included) gets 404 room_not_found;
 * - platformAdmin: platform administrators only (modules, keys, accounts pushed by the core platform).
 */
export type Audience = 'public' | 'caller' | 'room' | 'platformAdmin';

export const refusal = (status: number, code: string): Refusal => ({ status, code });
export const FORBIDDEN = refusal(403, 'forbidden');
export const ROOM_NOT_FOUND = refusal(404, 'room_not_found');

/** The outcome of `persona` on an operation for `audience` whose allowed personas are `allowed`. */
export function defaultOutcome(audience: Audience, allowed: readonly Persona[], persona: Persona): Outcome {
  if (audience === 'public') return 'ok';
  if (persona === 'anonymous') return refusal(401, 'unauthenticated');
  if (persona === 'unknownKey') return refusal(401, 'unknown_signing_key');
  if (persona === 'deactivated') return refusal(403, 'account_deactivated');
  if (allowed.includes(persona)) return 'ok';
  switch (audience) {
    case 'platformAdmin':
      return refusal(403, 'platform_admin_required');
    case 'room':
      // A platform administrator is no member of the room either: it learns nothing about it.
      return persona === 'nonMember' || persona === 'platformAdmin' ? ROOM_NOT_FOUND : FORBIDDEN;
    case 'caller':
      return FORBIDDEN;
  }
}

/** Allowed personas when a row does not list them. */
export function defaultAllowed(audience: Audience): Persona[] {
  switch (audience) {
    case 'public':
      return [...PERSONAS];
    case 'caller':
      return ['nonMember', 'member', 'admin', 'owner', 'platformAdmin'];
    case 'room':
      return ['member', 'admin', 'owner'];
    case 'platformAdmin':
      return ['platformAdmin'];
  }
}
