// The closing table of `make bench`: every goal row of the parts that ran (name, ours, baseline, ratio, goal,
// met), printed and written as JSON to .data/bench/latest.json.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { table } from './report.js';
import { benchDir, type SectionFile } from './results.js';

const dir = join(benchDir(), 'sections');
const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).sort();
const sections: SectionFile[] = [];
for (const n of names) sections.push(JSON.parse(await readFile(join(dir, n), 'utf8')) as SectionFile);
if (sections.length === 0) {
  process.stderr.write(`no benchmark results in ${dir}; run the benchmark parts first\n`);
  process.exit(1);
}
const rows = sections.flatMap((s) => s.rows);
const out: string[] = ['', 'BENCHMARK GOALS (figures are medians of rounds; ratios are medians of per-round ratios measured side by side)'];
for (const s of sections) {
  out.push(
    `  ${s.section}: finished ${s.finishedAt}, node ${s.node}, ${s.cpus} CPU(s), load average ${s.loadStart.join(' ')} at start, ${s.loadEnd.join(' ')} at end`,
  );
}
out.push('');
out.push(
  table(
    ['name', 'ours', 'baseline', 'ratio', 'goal', 'met'],
    rows.map((r) => [r.name, r.ours, r.baseline, r.ratio, r.goal, r.met === null ? '-' : r.met ? 'yes' : 'NO']),
  ),
);
const missed = rows.filter((r) => r.met === false);
const failures = sections.flatMap((s) => s.failures.map((f) => `${s.section}: ${f}`));
out.push('');
out.push(
  missed.length === 0
    ? 'Every goal met.'
    : `${missed.length} goal(s) not met: ${missed.map((r) => r.name).join('; ')} (see docs/performance.md).`,
);
if (failures.length > 0) out.push('FAILURES', ...failures.map((f) => `  ${f}`));
process.stdout.write(`${out.join('\n')}\n`);
const latest = join(benchDir(), 'latest.json');
await writeFile(latest, `${JSON.stringify({ generatedAt: new Date().toISOString(), sections, rows }, null, 2)}\n`);
process.stdout.write(`written to ${latest}\n`);
process.exit(failures.length > 0 ? 1 : 0);
