// Formatting and process plumbing shared by the benchmark scripts.
import { performance } from 'node:perf_hooks';

export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
export const ms = (v: number) => v.toFixed(v < 10 ? 3 : 1);
export const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
export const rps = (v: number) => v.toFixed(0);

const t0 = performance.now();
export const elapsed = () => `${((performance.now() - t0) / 1000).toFixed(1)}s`;
export const progress = (line: string) => process.stderr.write(`[bench ${elapsed()}] ${line}\n`);

/** Cleanup steps run in reverse order, once, at the end or on SIGINT/SIGTERM. */
export const cleanups: Array<() => Promise<void>> = [];
let cleaned = false;
export async function cleanup(): Promise<void> {
  if (cleaned) return;
  cleaned = true;
  for (const fn of cleanups.reverse()) {
    try {
      await fn();
    } catch (err) {
      process.stderr.write(`cleanup: ${String(err)}\n`);
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void cleanup().finally(() => process.exit(130));
  });
}
