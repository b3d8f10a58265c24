// stop() may be called more than once (a signal during a failed start, a second SIGTERM, a test's cleanup): every
// call after the first waits for the first, and nothing is stopped twice.
import { Writable } from 'node:stream';
import pino from 'pino';
import { startPlatform } from '../../../src/app/runtime.js';
import { testConfig } from '../../support/platform.js';

test('stop() is idempotent: concurrent and later calls share the first drain and log no shutdown error', async () => {
  const lines: Array<{ level: number; msg: string }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  const platform = await startPlatform(testConfig(), pino({ level: 'warn' }, sink));
  // What the start logs depends on the shared database (another suite's weak verify key, say); only the stops count.
  lines.length = 0;
  const first = platform.stop();
  const second = platform.stop();
  await Promise.all([first, second]);
  await platform.stop();
  const problems = lines.filter((l) => l.level >= 40).map((l) => l.msg);
  expect(problems).toEqual([]);
});
