-- The SQL of src/workspace/approvals/queries.ts, one section per exported function (make snapshots writes this file).

-- approvalById
select
  "id",
  "title",
  "description",
  "requested_by",
  "approver_ids",
  "status",
  "current_step",
  "completed_at",
  "created_at",
  "updated_at"
from
  "approvals"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = $3
for update;

-- approvalPage
select
  "id",
  "title",
  "description",
  "requested_by",
  "approver_ids",
  "status",
  "current_step",
  "completed_at",
  "created_at",
  "updated_at"
from
  "approvals"
where
  "workspace_id" = $1
  and "environment" = $2
  and "status" = $3
  and "requested_by" = $4
  and "status" = $5
  and approver_ids[current_step] = $6::uuid
  and "id" < $7
order by
  "id" desc
limit
  $8;

-- decisionPage
select
  "id",
  "approval_id",
  "step",
  "approver_id",
  "decision",
  "comment",
  "created_at"
from
  "approval_decisions"
where
  "approval_id" = $1
  and "id" > $2
order by
  "id"
limit
  $3;

-- decisionRows
select
  "id",
  "approval_id",
  "step",
  "approver_id",
  "decision",
  "comment",
  "created_at"
from
  "approval_decisions"
where
  approval_id = any ($1::uuid[])
order by
  "step";

-- insertApproval
insert into
  "approvals" (
    "id",
    "workspace_id",
    "environment",
    "title",
    "description",
    "requested_by",
    "approver_ids",
    "status",
    "current_step",
    "created_at",
    "updated_at"
  )
values
  (
    $1,
    $2,
    $3,
    $4,
    $5,
    $6,
    $7::uuid[],
    $8,
    $9,
    $10,
    $11
  )
returning
  "id",
  "title",
  "description",
  "requested_by",
  "approver_ids",
  "status",
  "current_step",
  "completed_at",
  "created_at",
  "updated_at";

-- insertDecision
insert into
  "approval_decisions" (
    "id",
    "approval_id",
    "step",
    "approver_id",
    "decision",
    "comment",
    "created_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7)
returning
  "id",
  "approval_id",
  "step",
  "approver_id",
  "decision",
  "comment",
  "created_at";

-- setApprovalProgress
update "approvals"
set
  "status" = $1,
  "current_step" = $2,
  "completed_at" = $3,
  "updated_at" = $4
where
  "id" = $5
returning
  "id",
  "title",
  "description",
  "requested_by",
  "approver_ids",
  "status",
  "current_step",
  "completed_at",
  "created_at",
  "updated_at";
