// The sessions one node holds, by account: what deliveries, account rechecks and sweeps look up.
import type { StompSession } from './session.js';

export interface SessionIndex {
  /** Every open session, authenticated or not. */
  all: Set<StompSession>;
  /** Authenticated sessions by account id; an account with none has no entry. */
  byAccount: Map<string, Set<StompSession>>;
}

export function sessionIndex(): SessionIndex {
  return { all: new Set(), byAccount: new Map() };
}
