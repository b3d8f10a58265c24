// Paired measurements (stack and driver) of several read cases, interleaved round by round so that drift on a
// shared machine hits every case alike.
import { summarize, type LoadResult, type LoadTask, type LoadWorker, type RawResult } from './tasks.js';

export interface PairedCase {
  label: string;
  stack: LoadTask;
  base: LoadTask;
}

export interface PairedResult {
  label: string;
  stack: LoadResult;
  base: LoadResult;
}

export async function measurePaired(
  worker: LoadWorker,
  cases: PairedCase[],
  options: { rounds: number; perRound: number; warmup: number; onRound?: (round: number) => void },
): Promise<PairedResult[]> {
  for (const c of cases) {
    await worker.run({ ...c.base, requests: options.warmup });
    await worker.run({ ...c.stack, requests: options.warmup });
  }
  const runs = cases.map(() => ({ stack: [] as RawResult[], base: [] as RawResult[] }));
  for (let round = 0; round < options.rounds; round++) {
    options.onRound?.(round);
    const order = cases.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      runs[i]!.base.push(await worker.run({ ...cases[i]!.base, requests: options.perRound, warmup: 0 }));
      runs[i]!.stack.push(await worker.run({ ...cases[i]!.stack, requests: options.perRound, warmup: 0 }));
    }
  }
  return cases.map((c, i) => ({ label: c.label, stack: summarize(runs[i]!.stack), base: summarize(runs[i]!.base) }));
}

/** Adds a failure line when a measured run had failed requests or none at all. */
export function checkPaired(r: PairedResult, section: string, failures: string[]): void {
  for (const [side, result] of [['stack', r.stack], ['driver', r.base]] as const) {
    if (result.errors > 0) failures.push(`${section} ${r.label} (${side}): ${result.errors} failed request(s); first: ${result.firstError ?? 'unexpected result'}`);
    if (result.count < 1) failures.push(`${section} ${r.label} (${side}): no request completed`);
  }
}
