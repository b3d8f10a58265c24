// The channel rule benchmark on its own (it also runs as a section of run.ts): node dist/test/bench/channels-run.js.
// Starts its own embedded PostgreSQL and redis-server in a temporary folder and removes them at the end.
import { startTestPlatform } from '../support/platform.js';
import { benchChannels } from './channels.js';
import { cleanups, elapsed, runBenchmark, scratchInfra } from './report.js';

async function main(): Promise<number> {
  await scratchInfra('platform-bench-channels-');
  const platform = await startTestPlatform();
  cleanups.push(() => platform.stop());
  const { lines, failures } = await benchChannels(platform);
  const out = ['', ...lines, ''];
  if (failures.length > 0) out.push('FAILURES', ...failures.map((f) => `  ${f}`));
  else out.push(`All requests succeeded. Total run time ${elapsed()} (including setup).`);
  process.stdout.write(`${out.join('\n')}\n`);
  return failures.length > 0 ? 1 : 0;
}

await runBenchmark(main);
