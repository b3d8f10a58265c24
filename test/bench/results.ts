// The goal rows of each benchmark part, written to .data/bench/sections/<part>.json; summary.ts merges them into
// the one closing table and .data/bench/latest.json.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';

export interface GoalRow {
  name: string;
  /** Our figure, with its unit. */
  ours: string;
  baseline: string;
  ratio: string;
  goal: string;
  /** null: reported, no goal. */
  met: boolean | null;
  /** The figures behind the strings, for tools reading latest.json. */
  values?: Record<string, number>;
}

export interface SectionFile {
  section: string;
  finishedAt: string;
  node: string;
  cpus: number;
  /** Load averages (1, 5, 15 min) when the part started and when it ended. */
  loadStart: number[];
  loadEnd: number[];
  rows: GoalRow[];
  failures: string[];
}

export const benchDir = () => process.env.BENCH_OUT ?? join('.data', 'bench');
const sectionsDir = () => join(benchDir(), 'sections');

const loadStart = loadavg();
export const loadNow = () => loadavg().map((v) => Number(v.toFixed(2)));
export const loadAtStart = () => loadStart.map((v) => Number(v.toFixed(2)));

/** Removes the parts of an earlier run, so the closing table holds this run only (the first part calls it). */
export async function clearSections(): Promise<void> {
  await rm(sectionsDir(), { recursive: true, force: true });
}

export async function writeSection(section: string, rows: GoalRow[], failures: string[]): Promise<void> {
  await mkdir(sectionsDir(), { recursive: true });
  const file: SectionFile = {
    section,
    finishedAt: new Date().toISOString(),
    node: process.version,
    cpus: availableParallelism(),
    loadStart: loadAtStart(),
    loadEnd: loadNow(),
    rows,
    failures,
  };
  await writeFile(join(sectionsDir(), `${section}.json`), `${JSON.stringify(file, null, 2)}\n`);
}

export const fmtRatio = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '-');
export const fmtMs = (v: number) => (Number.isFinite(v) ? `${v.toFixed(v < 10 ? 2 : 1)} ms` : '-');
export const fmtRps = (v: number) => (Number.isFinite(v) ? `${v.toFixed(0)} req/s` : '-');
