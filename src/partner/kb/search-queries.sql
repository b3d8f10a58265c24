-- The SQL of src/partner/kb/search-queries.ts, one section per exported function (make snapshots writes this file).

-- matchingArticles
select
  "m"."id",
  "m"."title",
  "m"."body",
  "m"."tags",
  "m"."created_at",
  "m"."updated_at",
  "m"."rank",
  ts_headline('simple'::regconfig, m.body, m.q, $1) as "excerpt"
from
  (
    select
      "a".*,
      "q"."q",
      ts_rank_cd(
        to_tsvector('simple'::regconfig, a.title || ' ' || a.body),
        q.q
      ) as "rank"
    from
      "kb_articles" as "a",
      websearch_to_tsquery('simple'::regconfig, $2) as "q"
    where
      "a"."workspace_id" = $3
      and "a"."environment" = $4
      and to_tsvector('simple'::regconfig, a.title || ' ' || a.body) @@ q.q
      and a.tags @> array[$5::text]
      and (
        a.tags && $6::text[]
        or a.id = any ($7::uuid[])
      )
    order by
      "rank" desc,
      "a"."id" desc
    limit
      $8
    offset
      $9
  ) as "m"
order by
  "m"."rank" desc,
  "m"."id" desc;
