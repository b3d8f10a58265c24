import { startTestPlatform } from '../../support/platform.js';
import { runBenchmark, scratchInfra, cleanups } from '../report.js';
import { seed, seedHeavy } from '../room-list.js';
import { roomQuery } from '../../../src/chat/rooms/views.js';

await runBenchmark(async () => {
  await scratchInfra('explain-');
  const p = await startTestPlatform({ services: ['chat'] });
  cleanups.push(() => p.stop());
  const t = await p.tenant();
  const [w, h] = [await t.account(), await t.account()];
  await seed(p, h.id, w.id);
  await seedHeavy(p, h.id, w.id);
  await p.db.query('vacuum (analyze) rooms, room_members, messages, message_hides');
  const sql = process.env.SQL ?? `${roomQuery('and m.archived = $2', 'order by m.pinned desc, r.last_activity_at desc, r.id desc limit $3')} order by p.pinned desc, p.last_activity_at desc, p.id desc`;
  for (let i = 0; i < 3; i++) {
    const { rows } = await p.db.query(`explain (analyze, buffers, timing off) ${sql}`, [h.id, false, 51]);
    if (i === 2) console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
  }
  const oldUnread = `(select count(*)::int from messages x
            where x.room_id = p.id and x.thread_root_id is null and x.seq > p.last_read_seq
              and x.sender_id <> $1 and x.recalled_at is null
              and not exists (select 1 from message_hides h where h.account_id = $1 and h.message_id = x.id))`;
  const oldSql = sql.replace(/select p\.\*, [\s\S]*? as unread_count,/, `select p.*, ${oldUnread} as unread_count,`);
  if (oldSql === sql) throw new Error('no replace');
  const times: Record<string, number[]> = { old: [], new: [] };
  for (let i = 0; i < 40; i++) {
    for (const [k, q] of [['old', oldSql], ['new', sql]] as const) {
      const t0 = performance.now();
      const { rows } = await p.db.query(q, [h.id, false, 51]);
      times[k]!.push(performance.now() - t0);
      if (i === 0) console.log(k, rows.map((r) => r.unread_count).join(','));
    }
  }
  for (const [k, t] of Object.entries(times)) {
    t.sort((a, b) => a - b);
    console.log(`${k}: median ${t[20]!.toFixed(2)} ms, min ${t[0]!.toFixed(2)}, p90 ${t[36]!.toFixed(2)}`);
  }
  return 0;
});
