-- The SQL of src/chat/base/message-queries.ts, one section per exported function (make snapshots writes this file).

-- hiddenBy
select
  1 as "one"
from
  "message_hides" as "h"
where
  "h"."account_id" = $1
  and "h"."message_id" = "m"."id";

-- hiddenForMe
select
  exists (
    (
      select
        1 as "one"
      from
        "message_hides" as "h"
      where
        "h"."account_id" = $1
        and "h"."message_id" = "messages"."id"
    )
  ) as "hidden_for_me"
from
  "messages";
