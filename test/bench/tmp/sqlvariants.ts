import { scratchInfra, runBenchmark, cleanups } from '../report.js';
import { createSqlPool } from '../../../src/platform/db/sql.js';
import { newId } from '../../../src/platform/ids.js';
import { sendSql } from '../../../src/chat/messages/service.js';
import { messageColumns } from '../../../src/chat/messages/views.js';
import { RAW_SEND_SQL } from '../tasks.js';
import { cpuSample, cpuDelta } from '../cpu.js';
import { drainOutbox } from '../../../src/platform/outbox.js';
import { connectRedis } from '../../../src/platform/redis.js';

const noConflict = `
  with bump as (
    update rooms set last_seq = last_seq + 1, last_activity_at = $5
     where id = $2 and exists (select 1 from room_members where room_id = $2 and account_id = $3)
    returning last_seq
  ), msg as (
    insert into messages (id, room_id, seq, sender_id, type, text, client_message_id, created_at)
    select $1, $2, bump.last_seq, $3, 'TEXT', $4, $6, $5 from bump
    returning ${messageColumns}
  ), event as (
    insert into outbox (topic, payload)
    select 'message.created', jsonb_build_object('roomId', room_id, 'messageId', id, 'senderId', sender_id, 'seq', seq,
             'threadRootId', thread_root_id, 'audience', jsonb_build_object('kind', 'room', 'roomId', room_id)) from msg
  )
  select b.last_seq as bumped, m.* from bump b left join msg m on true`;

await runBenchmark(async () => {
  const { databaseUrl, redisUrl } = await scratchInfra('sqlv-');
  const redis = connectRedis(redisUrl, 'x');
  cleanups.push(async () => redis.disconnect());
  const pool = createSqlPool(databaseUrl);
  cleanups.push(() => pool.end());
  const acc = newId();
  await pool.query(`insert into modules (code, name) values ('m','m')`);
  await pool.query(`insert into accounts (id, module_code, customer_account_id, display_name, account_type, status) values ($1,'m','c','a','USER','ACTIVE')`, [acc]);
  const rooms: string[] = [];
  for (let i = 0; i < 8; i++) {
    const id = newId();
    rooms.push(id);
    await pool.query(`insert into rooms (id, type, name, add_member_policy, created_by, member_count, created_at, last_activity_at) values ($1,'GROUP','r','ALL_MEMBERS',$2,1,now(),now())`, [id, acc]);
    await pool.query(`insert into room_members (room_id, account_id, role, joined_at) values ($1,$2,'OWNER',now())`, [id, acc]);
  }
  const variants: Array<[string, string, boolean]> = [['raw', RAW_SEND_SQL, false], ['sendSql', sendSql, false], ['noConflict', noConflict, false], ['sendSql+drain', sendSql, true]];
  const N = 4000;
  for (let round = 0; round < 3; round++) {
    for (const [name, sql, drain] of variants) {
      let draining = drain;
      const drainer = (async () => { while (draining) { await drainOutbox(pool, redis); await new Promise((r) => setTimeout(r, 5)); } })();
      const a = cpuSample(undefined)!;
      const t0 = performance.now();
      let next = 0;
      await Promise.all(rooms.map(async (room) => {
        while (next++ < N) await pool.query(sql, [newId(), room, acc, 'benchmark message: the quick brown fox', new Date(), null]);
      }));
      const t = performance.now() - t0;
      const d = cpuDelta(a, cpuSample(undefined)!);
      draining = false;
      await drainer;
      await pool.query('update outbox set published_at = now() where published_at is null');
      console.log(`${name.padEnd(12)} ${(N / t * 1000).toFixed(0)} req/s, PG CPU ${(d.postgres * 1000 / N).toFixed(0)} us/stmt`);
      await pool.query('vacuum analyze outbox');
    }
  }
  return 0;
});
