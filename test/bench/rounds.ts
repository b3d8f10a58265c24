// Paired measurements (stack and baseline) of several cases, warmed up, then interleaved round by round so that
// drift on a shared machine hits every case alike; each figure reported is the median of the rounds.
import { pairedDifference, pairedRatio, summarize, type LoadGenerator, type LoadResult, type LoadTask, type RawResult } from './tasks.js';

export interface PairedCase {
  label: string;
  stack: LoadTask;
  base: LoadTask;
}

export interface PairedResult {
  label: string;
  stack: LoadResult;
  base: LoadResult;
  stackRuns: RawResult[];
  baseRuns: RawResult[];
  /** Medians over rounds of stack / base, each round's pair measured back to back. */
  throughputRatio: number;
  p50Ratio: number;
  p99Ratio: number;
  /** Median over rounds of stack p50 - base p50 (ms). */
  p50Added: number;
}

export interface RoundOptions {
  rounds: number;
  /** Requests per case and side in each round (closed-loop tasks). */
  perRound: number;
  /** Unmeasured requests per case and side before the first round. */
  warmup: number;
  onRound?: (round: number) => void;
  /** Runs after every measured run (e.g. to let background work of the previous run finish). */
  between?: () => Promise<void>;
}

export async function measurePaired(load: LoadGenerator, cases: PairedCase[], options: RoundOptions): Promise<PairedResult[]> {
  if (options.warmup > 0) {
    for (const c of cases) {
      await load.run({ ...c.base, requests: options.warmup, warmup: 0, rate: undefined });
      await load.run({ ...c.stack, requests: options.warmup, warmup: 0, rate: undefined });
      await options.between?.();
    }
  }
  const runs = cases.map(() => ({ stack: [] as RawResult[], base: [] as RawResult[] }));
  for (let round = 0; round < options.rounds; round++) {
    options.onRound?.(round);
    const order = cases.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      // Which side goes first alternates too, so neither always follows the other's leftovers.
      const sides = round % 2 === 0 ? (['base', 'stack'] as const) : (['stack', 'base'] as const);
      for (const side of sides) {
        runs[i]![side].push(await load.run({ ...cases[i]![side], requests: options.perRound, warmup: 0 }));
        await options.between?.();
      }
    }
  }
  return cases.map((c, i) => {
    const { stack, base } = runs[i]!;
    return {
      label: c.label,
      stack: summarize(stack),
      base: summarize(base),
      stackRuns: stack,
      baseRuns: base,
      throughputRatio: pairedRatio(stack, base, 'throughput'),
      p50Ratio: pairedRatio(stack, base, 'p50'),
      p99Ratio: pairedRatio(stack, base, 'p99'),
      p50Added: pairedDifference(stack, base, 'p50'),
    };
  });
}

/** Adds a failure line when a measured run had failed requests or none at all. */
export function checkPaired(r: PairedResult, section: string, failures: string[]): void {
  for (const [side, result] of [
    ['stack', r.stack],
    ['driver', r.base],
  ] as const) {
    if (result.errors > 0)
      failures.push(
        `${section} ${r.label} (${side}): ${result.errors} failed request(s); first: ${result.firstError ?? 'unexpected result'}`,
      );
    if (result.count < 1) failures.push(`${section} ${r.label} (${side}): no request completed`);
  }
}
