// Resolving an outbound request's host and checking every address it resolves to. The refusal names no address:
// what an internal name resolves to is not for the caller to learn.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isReachableAddress } from './addresses.js';

/** A target that may not be called; the message is safe to show and log (it repeats no resolved address). */
export class OutboundRefused extends Error {
  readonly code = 'EADDRNOTALLOWED';
}

export interface ResolvedTarget {
  address: string;
  family: 4 | 6;
}

export type HostLookup = (host: string) => Promise<Array<{ address: string; family: number }>>;

const systemLookup: HostLookup = (host) => lookup(host, { all: true, verbatim: true });

/**
 * Names under the special-use domain "invalid." never resolve (RFC 6761 section 6.4 asks resolver libraries to answer
 * them negatively at once); asking a DNS server anyway can hold a request for the whole resolver time-out.
 */
export function isInvalidName(host: string): boolean {
  return /(^|\.)invalid\.?$/i.test(host);
}

/**
 * The host's addresses, or an error with code ETIMEOUT after timeoutMs: the system resolver takes 5 s or more to give
 * up on some names, and a request must answer within its own time-out. The late answer is dropped.
 */
function lookupWithin(host: string, timeoutMs: number, resolve: HostLookup): Promise<Array<{ address: string; family: number }>> {
  const pending = resolve(host);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`resolving ${host} took longer than ${timeoutMs} ms`), { code: 'ETIMEOUT' })),
      timeoutMs,
    );
  });
  pending.catch(() => undefined);
  return Promise.race([pending, expired]).finally(() => clearTimeout(timer));
}

/**
 * Resolves host (a literal address is taken as it is) within timeoutMs and checks every address; throws
 * OutboundRefused, or the resolver's error (ENOTFOUND, EAI_AGAIN, ETIMEOUT). The first address is the one to connect to.
 */
export async function resolveOutbound(
  host: string,
  allowPrivate: boolean,
  timeoutMs: number,
  resolve: HostLookup = systemLookup,
): Promise<ResolvedTarget> {
  const literal = isIP(host);
  if (!literal && isInvalidName(host))
    throw Object.assign(new Error(`${host} is under the special-use domain invalid.`), { code: 'ENOTFOUND' });
  const addresses = literal ? [{ address: host, family: literal }] : await lookupWithin(host, timeoutMs, resolve);
  if (addresses.length === 0) throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' });
  if (addresses.some(({ address }) => !isReachableAddress(address, allowPrivate))) {
    throw new OutboundRefused(`${host} resolves to a loopback, private, link-local or reserved address, which may not be called`);
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
