-- The SQL of src/workspace/tickets/queries.ts, one section per exported function (make snapshots writes this file).

-- commentPage
select
  "id",
  "ticket_id",
  "body",
  "author_id",
  "internal",
  "created_at"
from
  "ticket_comments"
where
  "ticket_id" = $1
  and "id" > $2
order by
  "id"
limit
  $3;

-- insertComment
insert into
  "ticket_comments" (
    "id",
    "ticket_id",
    "workspace_id",
    "environment",
    "body",
    "author_id",
    "internal",
    "created_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8)
returning
  "id",
  "ticket_id",
  "body",
  "author_id",
  "internal",
  "created_at";

update "tickets"
set
  "updated_at" = $1
where
  "id" = $2;

-- insertTicket
insert into
  "tickets" (
    "id",
    "workspace_id",
    "environment",
    "subject",
    "description",
    "priority",
    "status",
    "assignee_id",
    "contact_id",
    "sla_due_at",
    "created_at",
    "updated_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
returning
  "id",
  "workspace_id",
  "environment",
  "subject",
  "description",
  "priority",
  "status",
  "assignee_id",
  "contact_id",
  "sla_due_at",
  "sla_breached_at",
  "resolved_at",
  "closed_at",
  "created_at",
  "updated_at";

-- lockTicket
select
  "id",
  "workspace_id",
  "environment",
  "subject",
  "description",
  "priority",
  "status",
  "assignee_id",
  "contact_id",
  "sla_due_at",
  "sla_breached_at",
  "resolved_at",
  "closed_at",
  "created_at",
  "updated_at"
from
  "tickets"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = $3
for update;

-- lockTicketById
select
  "id",
  "workspace_id",
  "environment",
  "subject",
  "description",
  "priority",
  "status",
  "assignee_id",
  "contact_id",
  "sla_due_at",
  "sla_breached_at",
  "resolved_at",
  "closed_at",
  "created_at",
  "updated_at"
from
  "tickets"
where
  "id" = $1
for update;

-- markSlaBreached
update "tickets"
set
  "sla_breached_at" = $1
where
  "id" = $2
returning
  "id",
  "workspace_id",
  "environment",
  "subject",
  "description",
  "priority",
  "status",
  "assignee_id",
  "contact_id",
  "sla_due_at",
  "sla_breached_at",
  "resolved_at",
  "closed_at",
  "created_at",
  "updated_at";

-- overdueTicketIds
select
  "id"
from
  "tickets"
where
  "sla_breached_at" is null
  and "status" in ($1, $2)
  and "sla_due_at" <= $3
order by
  "sla_due_at"
limit
  $4;

-- ticketById
select
  "id",
  "workspace_id",
  "environment",
  "subject",
  "description",
  "priority",
  "status",
  "assignee_id",
  "contact_id",
  "sla_due_at",
  "sla_breached_at",
  "resolved_at",
  "closed_at",
  "created_at",
  "updated_at"
from
  "tickets"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = $3;

-- ticketPage
select
  "id",
  "workspace_id",
  "environment",
  "subject",
  "description",
  "priority",
  "status",
  "assignee_id",
  "contact_id",
  "sla_due_at",
  "sla_breached_at",
  "resolved_at",
  "closed_at",
  "created_at",
  "updated_at"
from
  "tickets"
where
  "workspace_id" = $1
  and "environment" = $2
  and "status" = $3
  and "priority" = $4
  and "assignee_id" = $5
  and "contact_id" = $6
  and "sla_breached_at" is null
  and "id" < $7
order by
  "id" desc
limit
  $8;

-- ticketScope
select
  "workspace_id",
  "environment"
from
  "tickets"
where
  "id" = $1;

-- updateTicket
update "tickets"
set
  "status" = $1,
  "resolved_at" = $2,
  "updated_at" = $3
where
  "id" = $4
returning
  "id",
  "workspace_id",
  "environment",
  "subject",
  "description",
  "priority",
  "status",
  "assignee_id",
  "contact_id",
  "sla_due_at",
  "sla_breached_at",
  "resolved_at",
  "closed_at",
  "created_at",
  "updated_at";
