import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { fileTimesOf, stopLeftoverRedisServers } from './runner/run-dir.mjs';

const shown = 12;

/**
 * Every file's seconds into .data/test-files.tsv (costliest CPU first; TEST_FILES_REPORT names another file of .data/
 * for a run beside the main one), and the costliest printed.
 */
function reportFileTimes(runDir) {
  const report = process.env.TEST_FILES_REPORT ?? 'test-files.tsv';
  const source = fileTimesOf(runDir);
  if (!existsSync(source)) return;
  const rows = readFileSync(source, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'))
    .map(([file, wall, cpu]) => ({ file, wall: Number(wall), cpu: Number(cpu) }))
    .sort((a, b) => b.cpu - a.cpu);
  const data = new URL('../../.data/', import.meta.url);
  mkdirSync(data, { recursive: true });
  writeFileSync(new URL(report, data), rows.map((r) => `${r.file}\t${r.wall}\t${r.cpu}\n`).join(''));
  const sum = (key) => rows.reduce((total, r) => total + r[key], 0).toFixed(0);
  const lines = rows.slice(0, shown).map((r) => `  ${r.cpu.toFixed(1).padStart(6)} ${r.wall.toFixed(1).padStart(6)}  ${r.file}`);
  process.stdout.write(
    `\njest files by CPU in the test processes (of ${rows.length}: ${sum('cpu')} CPU s, ${sum('wall')} s summed wall; all in .data/${report})\n` +
      `     cpu   wall  file\n${lines.join('\n')}\n`,
  );
}

export default async function globalTeardown() {
  const runDir = process.env.TEST_RUN_DIR;
  stopLeftoverRedisServers(runDir);
  for (const stop of (globalThis.__testInfraStops ?? []).reverse()) await stop();
  if (runDir) {
    reportFileTimes(runDir);
    await rm(runDir, { recursive: true, force: true });
  }
}
