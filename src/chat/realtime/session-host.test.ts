import type { GatewayDeps } from './gateway-deps.js';
import type { StompSession } from './session.js';
import { sessionHost } from './session-host.js';
import { sessionIndex } from './session-index.js';

function hostWith(sessionClosed: () => Promise<void>) {
  const errors: string[] = [];
  const deps = {
    options: { maxSessionsPerAccount: 5 },
    log: { error: (_: unknown, msg: string) => errors.push(msg) },
    presence: { sessionClosed },
  } as unknown as GatewayDeps;
  const index = sessionIndex();
  const host = sessionHost(deps, index);
  const session = { accountId: 'a1', id: 's1', presenceOpen: true } as unknown as StompSession;
  expect(host.register(session)).toBe(true);
  return { host, session, errors };
}

/** A presence drop that times out the first time and succeeds after; counts its calls. */
function failingOnce(): { sessionClosed: () => Promise<void>; calls: () => number } {
  let calls = 0;
  return {
    calls: () => calls,
    sessionClosed: async () => {
      calls++;
      if (calls === 1) throw new Error('Command timed out');
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 10));

describe('sessionHost presence close', () => {
  it('drops the entry once more when the first drop failed, and logs nothing', async () => {
    const drop = failingOnce();
    const { host, session, errors } = hostWith(drop.sessionClosed);
    host.unregister(session);
    await settle();
    expect(drop.calls()).toBe(2);
    expect(errors).toEqual([]);
    expect(session.presenceOpen).toBe(false);
  });

  it('logs the failure when the second drop fails too', async () => {
    let calls = 0;
    const { host, session, errors } = hostWith(async () => {
      calls++;
      throw new Error('Command timed out');
    });
    host.unregister(session);
    await settle();
    expect(calls).toBe(2);
    expect(errors).toEqual(['realtime: presence close failed']);
  });
});
