-- The SQL of src/partner/ai/queries.ts, one section per exported function (make snapshots writes this file).

-- agentById
select
  "id",
  "name",
  "instructions",
  "tone",
  "kb_tags",
  "kb_article_ids",
  "max_suggestions",
  "enabled",
  "created_at",
  "updated_at"
from
  "ai_agents"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = $3;

-- agentPage
select
  "id",
  "name",
  "instructions",
  "tone",
  "kb_tags",
  "kb_article_ids",
  "max_suggestions",
  "enabled",
  "created_at",
  "updated_at"
from
  "ai_agents"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" < $3
order by
  "id" desc
limit
  $4;

-- deleteAgent
delete from "ai_agents"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = $3;

-- inboxCounts
select
  (
    select
      count(*) as "n"
    from
      "kb_articles"
    where
      "workspace_id" = $1
      and "environment" = $2
  ) as "articles",
  (
    select
      count(*) as "n"
    from
      "ai_agents"
    where
      "workspace_id" = $3
      and "environment" = $4
  ) as "agents",
  (
    select
      count(*) as "n"
    from
      "ai_agents"
    where
      "workspace_id" = $5
      and "environment" = $6
      and "enabled" = $7
  ) as "enabled_agents";

-- insertAgent
insert into
  "ai_agents" (
    "id",
    "workspace_id",
    "environment",
    "name",
    "instructions",
    "tone",
    "kb_tags",
    "kb_article_ids",
    "max_suggestions",
    "enabled",
    "created_at",
    "updated_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
returning
  "id",
  "name",
  "instructions",
  "tone",
  "kb_tags",
  "kb_article_ids",
  "max_suggestions",
  "enabled",
  "created_at",
  "updated_at";

-- updateAgent
update "ai_agents"
set
  "name" = $1,
  "enabled" = $2,
  "updated_at" = $3
where
  "workspace_id" = $4
  and "environment" = $5
  and "id" = $6
returning
  "id",
  "name",
  "instructions",
  "tone",
  "kb_tags",
  "kb_article_ids",
  "max_suggestions",
  "enabled",
  "created_at",
  "updated_at";
