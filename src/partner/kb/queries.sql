-- The SQL of src/partner/kb/queries.ts, one section per exported function (make snapshots writes this file).

-- articleById
select
  "id",
  "title",
  "body",
  "tags",
  "created_at",
  "updated_at"
from
  "kb_articles"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = $3;

-- articlePage
select
  "id",
  "title",
  "body",
  "tags",
  "created_at",
  "updated_at"
from
  "kb_articles"
where
  "workspace_id" = $1
  and "environment" = $2
  and tags @> array[$3::text]
  and "id" < $4
order by
  "id" desc
limit
  $5;

-- deleteArticle
delete from "kb_articles"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = $3;

-- existingArticleIds
select
  "id"
from
  "kb_articles"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = any ($3::uuid[]);

-- insertArticle
insert into
  "kb_articles" (
    "id",
    "workspace_id",
    "environment",
    "title",
    "body",
    "tags",
    "created_at",
    "updated_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8)
returning
  "id",
  "title",
  "body",
  "tags",
  "created_at",
  "updated_at";

-- updateArticle
update "kb_articles"
set
  "title" = $1,
  "tags" = $2,
  "updated_at" = $3
where
  "workspace_id" = $4
  and "environment" = $5
  and "id" = $6
returning
  "id",
  "title",
  "body",
  "tags",
  "created_at",
  "updated_at";
