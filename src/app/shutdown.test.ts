// The platform's stop (createShutdown): drain hooks first, then the stops in reverse start order, each once however
// often stop() is called; a failing stop is logged and the others still run.
import { Writable } from 'node:stream';
import pino from 'pino';
import { createShutdown } from './shutdown.js';

function recordingLog() {
  const warnings: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) warnings.push((JSON.parse(line) as { msg: string }).msg);
      done();
    },
  });
  return { log: pino({ level: 'warn' }, sink), warnings };
}

test('stops run once each, in reverse start order, after the drain hooks; later calls share the first drain', async () => {
  const { log } = recordingLog();
  const shutdown = createShutdown(log);
  const ran: string[] = [];
  for (const name of ['infra', 'pools', 'queues', 'listener']) shutdown.add(async () => void ran.push(name));
  shutdown.onDrain(async () => {
    await new Promise((r) => setTimeout(r, 20));
    ran.push('drain');
  });
  const first = shutdown.stop();
  const second = shutdown.stop();
  expect(second).toBe(first);
  await Promise.all([first, second]);
  await shutdown.stop();
  expect(ran).toEqual(['drain', 'listener', 'queues', 'pools', 'infra']);
});

test('a stop that fails is logged and the stops before it still run', async () => {
  const { log, warnings } = recordingLog();
  const shutdown = createShutdown(log);
  const ran: string[] = [];
  shutdown.add(async () => void ran.push('first'));
  shutdown.add(async () => {
    throw new Error('refused');
  });
  shutdown.add(async () => void ran.push('last'));
  await shutdown.stop();
  expect(ran).toEqual(['last', 'first']);
  expect(warnings).toEqual(['error during shutdown']);
});

test('a dependency that does not answer is named once and its hanging stops are not waited for', async () => {
  const { log, warnings } = recordingLog();
  const shutdown = createShutdown(log, { probeMs: 50, stepWithDeadDependencyMs: 50 });
  const ran: string[] = [];
  shutdown.dependsOn('redis', () => new Promise<boolean>(() => undefined));
  shutdown.dependsOn('database', async () => true);
  shutdown.add(async () => void ran.push('first'));
  shutdown.add(() => new Promise<void>(() => undefined));
  shutdown.add(async () => {
    throw new Error('connection is gone');
  });
  const started = Date.now();
  await shutdown.stop();
  expect(Date.now() - started).toBeLessThan(1_000);
  expect(ran).toEqual(['first']);
  expect(warnings).toEqual(['dependency unreachable at shutdown; not waiting for it']);
});

test('with every dependency reachable a slow stop is waited for', async () => {
  const { log, warnings } = recordingLog();
  const shutdown = createShutdown(log, { probeMs: 50, stepWithDeadDependencyMs: 10 });
  const ran: string[] = [];
  shutdown.dependsOn('redis', async () => true);
  shutdown.add(async () => {
    await new Promise((r) => setTimeout(r, 100));
    ran.push('slow');
  });
  await shutdown.stop();
  expect(ran).toEqual(['slow']);
  expect(warnings).toEqual([]);
});
