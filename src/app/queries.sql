-- The SQL of src/app/queries.ts, one section per exported function (make snapshots writes this file).

-- addModule
insert into
  "modules" ("code", "name")
values
  ($1, $2)
on conflict do nothing;

-- pendingBotUpdateCount
select
  count(*)::int as "n"
from
  "bot_updates";
