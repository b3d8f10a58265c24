-- The SQL of src/chat/mentions/mention-queries.ts, one section per exported function (make snapshots writes this file).

-- mentionCtes
with
  "cand" as (
    select
      "c"."o",
      "c"."l",
      "c"."k",
      "c"."n",
      "c"."a"
    from
      jsonb_to_recordset($1::jsonb) as c (o int, l int, k text, n text, a uuid)
  ),
  "hit" as (
    select
      "c"."o",
      "c"."l",
      "c"."k",
      "a"."id" as "account_id"
    from
      "cand" as "c"
      cross join lateral (
        select
          "x"."id"
        from
          "accounts" as "x"
        where
          "x"."customer_account_id" = (
            select
              "customer_account_id"
            from
              "accounts"
            where
              "id" = $2::uuid
          )
          and lower(x.username) = "c"."n"
        limit
          1
      ) as "a"
      cross join lateral (
        select
          1 as "one"
        from
          "room_members"
        where
          "room_id" = $3::uuid
          and "account_id" = "a"."id"
        limit
          1
      ) as "rm"
    where
      "c"."n" is not null
    union all
    select
      "c"."o",
      "c"."l",
      "c"."k",
      "c"."a" as "account_id"
    from
      "cand" as "c"
      cross join lateral (
        select
          1 as "one"
        from
          "room_members"
        where
          "room_id" = $4::uuid
          and "account_id" = "c"."a"
        limit
          1
      ) as "rm"
    where
      "c"."a" is not null
    union all
    select
      "c"."o",
      "c"."l",
      "c"."k",
      null as "account_id"
    from
      "cand" as "c"
    where
      "c"."k" <> 'user'
      and exists (
        select
          1 as "one"
        from
          "room_members"
        where
          "room_id" = $5::uuid
          and "account_id" = $6::uuid
          and "role" in ('OWNER', 'ADMIN')
      )
  ),
  "ents" as (
    select
      jsonb_agg(
        jsonb_strip_nulls(
          jsonb_build_object(
            'type',
            'mention',
            'offset',
            o,
            'length',
            l,
            'accountId',
            account_id,
            'broadcast',
            case
              when k = 'user' then null
              else k
            end
          )
        )
        order by
          o
      ) as "e"
    from
      "hit"
  ),
  "notified" as (
    select
      "account_id"
    from
      "hit"
    where
      "account_id" is not null
      and "account_id" <> $7::uuid
    union
    select
      "m"."account_id"
    from
      "room_members" as "m"
    where
      "m"."room_id" = $8::uuid
      and "m"."account_id" <> $9::uuid
      and exists (
        select
          1 as "one"
        from
          "hit"
        where
          "k" <> 'user'
      )
  )
select
  "e"
from
  "ents";

-- mentionWrites
with
  "cand" as (
    select
      "c"."o",
      "c"."l",
      "c"."k",
      "c"."n",
      "c"."a"
    from
      jsonb_to_recordset($1::jsonb) as c (o int, l int, k text, n text, a uuid)
  ),
  "hit" as (
    select
      "c"."o",
      "c"."l",
      "c"."k",
      "a"."id" as "account_id"
    from
      "cand" as "c"
      cross join lateral (
        select
          "x"."id"
        from
          "accounts" as "x"
        where
          "x"."customer_account_id" = (
            select
              "customer_account_id"
            from
              "accounts"
            where
              "id" = $2::uuid
          )
          and lower(x.username) = "c"."n"
        limit
          1
      ) as "a"
      cross join lateral (
        select
          1 as "one"
        from
          "room_members"
        where
          "room_id" = $3::uuid
          and "account_id" = "a"."id"
        limit
          1
      ) as "rm"
    where
      "c"."n" is not null
    union all
    select
      "c"."o",
      "c"."l",
      "c"."k",
      "c"."a" as "account_id"
    from
      "cand" as "c"
      cross join lateral (
        select
          1 as "one"
        from
          "room_members"
        where
          "room_id" = $4::uuid
          and "account_id" = "c"."a"
        limit
          1
      ) as "rm"
    where
      "c"."a" is not null
    union all
    select
      "c"."o",
      "c"."l",
      "c"."k",
      null as "account_id"
    from
      "cand" as "c"
    where
      "c"."k" <> 'user'
      and exists (
        select
          1 as "one"
        from
          "room_members"
        where
          "room_id" = $5::uuid
          and "account_id" = $6::uuid
          and "role" in ('OWNER', 'ADMIN')
      )
  ),
  "ents" as (
    select
      jsonb_agg(
        jsonb_strip_nulls(
          jsonb_build_object(
            'type',
            'mention',
            'offset',
            o,
            'length',
            l,
            'accountId',
            account_id,
            'broadcast',
            case
              when k = 'user' then null
              else k
            end
          )
        )
        order by
          o
      ) as "e"
    from
      "hit"
  ),
  "notified" as (
    select
      "account_id"
    from
      "hit"
    where
      "account_id" is not null
      and "account_id" <> $7::uuid
    union
    select
      "m"."account_id"
    from
      "room_members" as "m"
    where
      "m"."room_id" = $8::uuid
      and "m"."account_id" <> $9::uuid
      and exists (
        select
          1 as "one"
        from
          "hit"
        where
          "k" <> 'user'
      )
  ),
  "msg" as (
    select
      "id",
      "room_id",
      "seq",
      "sender_id",
      "created_at",
      "thread_root_id"
    from
      "messages"
    where
      "id" = $10
  ),
  "men" as (
    insert into
      "mentions" (
        "account_id",
        "message_id",
        "room_id",
        "seq",
        "created_at"
      )
    select
      "n"."account_id",
      "m"."id",
      "m"."room_id",
      "m"."seq",
      "m"."created_at"
    from
      "notified" as "n"
      cross join "msg" as "m"
    on conflict ("account_id", "message_id") do nothing
    returning
      "account_id"
  ),
  "men_event" as (
    insert into
      "outbox" ("topic", "payload")
    select
      'mention.created' as "topic",
      jsonb_build_object(
        'roomId',
        m.room_id,
        'messageId',
        m.id,
        'senderId',
        m.sender_id,
        'seq',
        m.seq,
        'threadRootId',
        m.thread_root_id,
        'audience',
        jsonb_build_object(
          'kind',
          'accounts',
          'accountIds',
          (
            select
              jsonb_agg(account_id)
            from
              men
          )
        )
      ) as "payload"
    from
      "msg" as "m"
    where
      exists (
        select
          1 as "one"
        from
          "men"
      )
  )
select
  "account_id"
from
  "men";

-- recordMessageMentions
with
  "cand" as (
    select
      "c"."o",
      "c"."l",
      "c"."k",
      "c"."n",
      "c"."a"
    from
      jsonb_to_recordset($1::jsonb) as c (o int, l int, k text, n text, a uuid)
  ),
  "hit" as (
    select
      "c"."o",
      "c"."l",
      "c"."k",
      "a"."id" as "account_id"
    from
      "cand" as "c"
      cross join lateral (
        select
          "x"."id"
        from
          "accounts" as "x"
        where
          "x"."customer_account_id" = (
            select
              "customer_account_id"
            from
              "accounts"
            where
              "id" = $2::uuid
          )
          and lower(x.username) = "c"."n"
        limit
          1
      ) as "a"
      cross join lateral (
        select
          1 as "one"
        from
          "room_members"
        where
          "room_id" = $3::uuid
          and "account_id" = "a"."id"
        limit
          1
      ) as "rm"
    where
      "c"."n" is not null
    union all
    select
      "c"."o",
      "c"."l",
      "c"."k",
      "c"."a" as "account_id"
    from
      "cand" as "c"
      cross join lateral (
        select
          1 as "one"
        from
          "room_members"
        where
          "room_id" = $4::uuid
          and "account_id" = "c"."a"
        limit
          1
      ) as "rm"
    where
      "c"."a" is not null
    union all
    select
      "c"."o",
      "c"."l",
      "c"."k",
      null as "account_id"
    from
      "cand" as "c"
    where
      "c"."k" <> 'user'
      and exists (
        select
          1 as "one"
        from
          "room_members"
        where
          "room_id" = $5::uuid
          and "account_id" = $6::uuid
          and "role" in ('OWNER', 'ADMIN')
      )
  ),
  "ents" as (
    select
      jsonb_agg(
        jsonb_strip_nulls(
          jsonb_build_object(
            'type',
            'mention',
            'offset',
            o,
            'length',
            l,
            'accountId',
            account_id,
            'broadcast',
            case
              when k = 'user' then null
              else k
            end
          )
        )
        order by
          o
      ) as "e"
    from
      "hit"
  ),
  "notified" as (
    select
      "account_id"
    from
      "hit"
    where
      "account_id" is not null
      and "account_id" <> $7::uuid
    union
    select
      "m"."account_id"
    from
      "room_members" as "m"
    where
      "m"."room_id" = $8::uuid
      and "m"."account_id" <> $9::uuid
      and exists (
        select
          1 as "one"
        from
          "hit"
        where
          "k" <> 'user'
      )
  ),
  "msg" as (
    update "messages"
    set
      "entities" = (
        select
          "e"
        from
          "ents"
      )
    where
      "id" = $10
      and "room_id" = $11
    returning
      "id",
      "room_id",
      "seq",
      "sender_id",
      "created_at",
      "thread_root_id",
      "entities"
  ),
  "gone" as (
    delete from "mentions"
    where
      "message_id" = $12
      and "account_id" not in (
        select
          "account_id"
        from
          "notified"
      )
    returning
      "account_id",
      "room_id"
  ),
  "gone_event" as (
    insert into
      "outbox" ("topic", "payload")
    select
      'mention.removed' as "topic",
      jsonb_build_object(
        'roomId',
        $13::uuid,
        'messageId',
        $14::uuid,
        'audience',
        jsonb_build_object(
          'kind',
          'accounts',
          'accountIds',
          (
            select
              jsonb_agg(account_id)
            from
              gone
          )
        )
      ) as "payload"
    where
      exists (
        select
          1 as "one"
        from
          "gone"
      )
  ),
  "men" as (
    insert into
      "mentions" (
        "account_id",
        "message_id",
        "room_id",
        "seq",
        "created_at"
      )
    select
      "n"."account_id",
      "m"."id",
      "m"."room_id",
      "m"."seq",
      "m"."created_at"
    from
      "notified" as "n"
      cross join "msg" as "m"
    on conflict ("account_id", "message_id") do nothing
    returning
      "account_id"
  ),
  "men_event" as (
    insert into
      "outbox" ("topic", "payload")
    select
      'mention.created' as "topic",
      jsonb_build_object(
        'roomId',
        m.room_id,
        'messageId',
        m.id,
        'senderId',
        m.sender_id,
        'seq',
        m.seq,
        'threadRootId',
        m.thread_root_id,
        'audience',
        jsonb_build_object(
          'kind',
          'accounts',
          'accountIds',
          (
            select
              jsonb_agg(account_id)
            from
              men
          )
        )
      ) as "payload"
    from
      "msg" as "m"
    where
      exists (
        select
          1 as "one"
        from
          "men"
      )
  )
select
  (
    select
      "entities"
    from
      "msg"
  ) as "entities";

-- withdrawMessageMentions
with
  "gone" as (
    delete from "mentions"
    where
      "message_id" = $1
    returning
      "account_id"
  ),
  "gone_event" as (
    insert into
      "outbox" ("topic", "payload")
    select
      'mention.removed' as "topic",
      jsonb_build_object(
        'roomId',
        $2::uuid,
        'messageId',
        $3::uuid,
        'audience',
        jsonb_build_object(
          'kind',
          'accounts',
          'accountIds',
          (
            select
              jsonb_agg(account_id)
            from
              gone
          )
        )
      ) as "payload"
    where
      exists (
        select
          1 as "one"
        from
          "gone"
      )
  )
select
  1 as "done";
