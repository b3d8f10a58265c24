-- The SQL of src/partner/base/paging-queries.ts, one section per exported function (make snapshots writes this file).

-- afterIdPage
select
  "id"
from
  "ai_agents"
where
  "id" < $1
order by
  "id" desc
limit
  $2;
