// The workspace listener (SERVICES includes `workspace`), convention B: svc_ keys, an audit log written in batches,
// ticket SLA timers queued for the workers.
import { AuditRecorder } from '../workspace/audit/recorder.js';
import { KeyLookup } from '../workspace/gate/key-lookup.js';
import { WorkspaceRateLimiter } from '../workspace/gate/rate-limit.js';
import { buildWorkspaceListener } from '../workspace/listener.js';
import { SlaTimers } from '../workspace/tickets/sla.js';
import type { Platform } from './platform.js';
import type { Wiring } from './wiring.js';

export async function startWorkspace(w: Wiring, platform: Platform): Promise<void> {
  const { config, log, clock, shutdown, gateKeys, slaQueue } = w;
  const { orm, sql, reads, redis } = w.base;
  const audit = new AuditRecorder(sql, log);
  audit.start(config.svcAuditFlushMs);
  shutdown.add(() => audit.stop());
  const workspace = await buildWorkspaceListener({
    deps: { orm, sql, reads, clock, config, gateKeys, sla: slaQueue && new SlaTimers(slaQueue.queue, clock, log) },
    keys: new KeyLookup(sql, clock, gateKeys),
    limiter: new WorkspaceRateLimiter(redis, clock),
    audit,
    verifyKeys: w.verifyKeys,
    accounts: w.accounts,
    maxTokenLifetimeSeconds: config.maxTokenLifetimeSeconds,
    readiness: w.readiness,
    log,
    bodyLimit: config.bodyLimitBytes,
    audience: config.jwtAudience,
    trustProxy: config.trustProxy,
    allowedOrigins: w.allowedOrigins,
    webhooks: w.webhooks,
    timeouts: config,
  });
  const address = await workspace.listen({ host: config.host, port: config.workspacePort });
  shutdown.add(() => workspace.close());
  platform.workspace = workspace;
  platform.workspaceUrl = address;
  platform.flushSvcAudit = () => audit.flush();
  log.info({ address }, 'workspace listener ready');
}
