// The server's checks over the partner scope catalogue, which the partner SDK publishes (sdk/partner/src/scopes.ts)
// so the console and clients read the same list. A scope is group:action; group:* grants read and write.
import { scopeCatalogue } from '../../../sdk/partner/src/scopes.js';

export { scopeCatalogue, scopePresets, type ScopeEntry } from '../../../sdk/partner/src/scopes.js';

const groups = new Set(scopeCatalogue.map((s) => s.group));
const known = new Set(scopeCatalogue.map((s) => s.id));

/** True for a catalogue scope or group:* of a catalogue group. */
export function isKnownScope(scope: string): boolean {
  if (known.has(scope)) return true;
  const [group, action, ...rest] = scope.split(':');
  return rest.length === 0 && action === '*' && group !== undefined && groups.has(group);
}

/** Whether a key's scopes grant the required one: exactly, or through group:*. */
export function grants(scopes: readonly string[], required: string): boolean {
  if (scopes.includes(required)) return true;
  const group = required.split(':')[0];
  return scopes.includes(`${group}:*`);
}

/** What a key list shows: at most 3 labels, the rest collapsed into +N. */
export function scopeLabels(scopes: readonly string[]): string[] {
  return scopes.length <= 3 ? [...scopes] : [...scopes.slice(0, 3), `+${scopes.length - 3}`];
}
