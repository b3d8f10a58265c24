import { healthHandlers as platformHealth } from '../../platform/http/health.js';
import type { Readiness } from '../../platform/readiness.js';
import type { WorkspaceFeatureHandlers } from '../base/handler-types.js';

export function healthHandlers(readiness: () => Promise<Readiness>): WorkspaceFeatureHandlers<'getHealth' | 'getReadiness'> {
  return platformHealth(readiness);
}
