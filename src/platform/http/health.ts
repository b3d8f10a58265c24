// /healthz and /readyz answer the same on every listener; each interface binds these two handlers to its own
// generated operations.
import type { Readiness } from '../readiness.js';

export function healthHandlers(readiness: () => Promise<Readiness>) {
  return {
    async getHealth() {
      return { status: 200 as const, body: { status: 'ok' as const } };
    },
    async getReadiness() {
      const r = await readiness();
      // 503 is the answer a load balancer acts on; it is not an error of the request.
      return r.ready
        ? { status: 200 as const, body: { status: 'ok' as const, checks: r.checks } }
        : ({ status: 503, body: { status: 'fail', checks: r.checks } } as never);
    },
  };
}
