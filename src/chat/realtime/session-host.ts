// What each STOMP session asks of its node: authentication, the per-account session limit, the event log, typing
// and presence. One host serves every session of the gateway.
import { decodeJwt } from 'jose';
import type { FastifyRequest } from 'fastify';
import { concurrencyLimit } from '../../platform/concurrency.js';
import type { GatewayDeps } from './gateway-deps.js';
import { lastSeqOf, readUserEvents } from './log.js';
import { accountStatus } from './session-queries.js';
import type { SessionHost } from './session.js';
import type { SessionIndex } from './session-index.js';

/**
 * Log reads one node runs at once. Connects and catch-ups come in bursts (every client of a restarted node, a sweep
 * finding many sessions behind); beyond this they queue here rather than in the pool, whose wait has a time-out.
 */
const logReadsAtOnce = 8;

/**
 * Presence writes one node sends at once: when every client of a node drops together (a balancer restarting) their
 * closes queue here rather than all waiting on Redis at the same moment, where they ran past the command time-out.
 */
const presenceWritesAtOnce = 64;

export function sessionHost(deps: GatewayDeps, index: SessionIndex): SessionHost {
  const { options, log } = deps;
  const { all, byAccount } = index;
  const logReads = concurrencyLimit(logReadsAtOnce);
  const presenceWrites = concurrencyLimit(presenceWritesAtOnce);
  return {
    options,
    async authenticate(token) {
      const caller = await deps.authenticate({ headers: { authorization: `Bearer ${token}` } } as FastifyRequest);
      return { caller, exp: decodeJwt(token).exp! };
    },
    msUntil: (exp) => exp * 1000 - deps.clock.now().getTime(),
    register(session) {
      const id = session.accountId!;
      let set = byAccount.get(id);
      if (!set) byAccount.set(id, (set = new Set()));
      if (set.size >= options.maxSessionsPerAccount) return false;
      set.add(session);
      return true;
    },
    unregister(session) {
      all.delete(session);
      const id = session.accountId;
      if (!id) return;
      if (session.presenceOpen) {
        session.presenceOpen = false;
        const close = () => presenceWrites(() => deps.presence.sessionClosed(id, session.id));
        // Once more after a failure: when thousands of sessions close together the node can read Redis's answer only
        // after the command time-out, and dropping an entry twice changes nothing.
        close()
          .catch(close)
          .catch((err: unknown) => log.error({ err }, 'realtime: presence close failed'));
      }
      const set = byAccount.get(id);
      set?.delete(session);
      if (set?.size === 0) byAccount.delete(id);
    },
    statusOf: (accountId) => accountStatus(deps.sql, accountId),
    readLog: (accountId, after, limit) => logReads(() => readUserEvents(deps.sql, accountId, after, limit)),
    lastSeq: (accountId) => logReads(() => lastSeqOf(deps.sql, accountId)),
    typing: async (accountId, roomId) => {
      await deps.typing.notify(accountId, roomId);
    },
    presenceAlive(session, ttlMs) {
      if (!session.accountId) return;
      const accountId = session.accountId;
      presenceWrites(() => deps.presence.sessionAlive(accountId, session.id, ttlMs)).catch((err: unknown) =>
        log.error({ err }, 'realtime: presence refresh failed'),
      );
    },
    onError: (err, what) => log.error({ err }, `realtime: ${what} failed`),
  };
}
