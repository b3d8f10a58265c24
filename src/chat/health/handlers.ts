import type { Readiness } from '../../platform/readiness.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';

export function healthHandlers(readiness: () => Promise<Readiness>): ChatFeatureHandlers<'getHealth' | 'getReadiness'> {
  return {
    async getHealth() {
      return { status: 200, body: { status: 'ok' } };
    },
    async getReadiness() {
      const r = await readiness();
      // 503 is the answer a load balancer acts on; it is not an error of the request.
      return r.ready
        ? { status: 200, body: { status: 'ok', checks: r.checks } }
        : ({ status: 503, body: { status: 'fail', checks: r.checks } } as never);
    },
  };
}
