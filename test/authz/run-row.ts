// Plays one row: a fresh world, then every persona from least to most privileged. Each outcome is written as a
// short string ("2xx", "404 room_not_found") so that one comparison shows the whole row; a refused call whose
// world fingerprint moved gets " + changed <tables>" appended.
import { call, type TestPlatform } from '../support/platform.js';
import { changedTables } from './fingerprint.js';
import { PERSONAS, type Outcome, type Persona } from './personas.js';
import { urlOf, type Row } from './row.js';
import type { ChatSpec } from './spec.js';
import { buildWorld } from './world.js';

export type RowReport = Record<Persona, string>;

export function expectedReport(row: Row): RowReport {
  return Object.fromEntries(PERSONAS.map((p) => [p, describe(row.outcomes[p])])) as RowReport;
}

function describe(outcome: Outcome): string {
  if (outcome === 'ok') return '2xx';
  if (outcome === 'skip') return 'skip';
  return `${outcome.status} ${outcome.code}`;
}

export async function runRow(platform: TestPlatform, spec: ChatSpec, row: Row): Promise<RowReport> {
  const world = await buildWorld(platform, spec);
  const played = await row.run(world);
  const report = {} as RowReport;
  for (const persona of PERSONAS) {
    const expected = row.outcomes[persona];
    if (expected === 'skip') {
      report[persona] = 'skip';
      continue;
    }
    await played.prepare(persona);
    const refused = expected !== 'ok';
    const before = refused ? await world.fingerprint() : undefined;
    const req = played.request(persona);
    const token = world.tokenOf(persona);
    const res = await call(platform.chatUrl, row.method, urlOf(row.path, req), {
      ...(token ? { token } : {}),
      ...(req.body !== undefined ? { body: req.body } : {}),
    });
    let got = res.status >= 200 && res.status < 300 ? '2xx' : `${res.status} ${res.body?.error?.code}`;
    if (!got.startsWith('2') && typeof res.body?.meta?.requestId !== 'string') got += ' (not the chat error envelope)';
    if (before) {
      const changed = changedTables(before, await world.fingerprint());
      if (changed.length > 0) got += ` + changed ${changed.join(',')}`;
    }
    report[persona] = got;
  }
  return report;
}
