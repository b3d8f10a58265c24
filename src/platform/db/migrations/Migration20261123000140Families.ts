import { Migration } from '@mikro-orm/migrations';

/**
 * The workspace API's module families outside CRM (CRM records stay in crm_records, shared with the partner API):
 * inbox conversations and messages, HR employees, attendance and leaves, tickets with their comments and SLA, and
 * multi-step approvals with their decisions. Every row belongs to one workspace and key environment (live or test).
 */
export class Migration20261123000140Families extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table inbox_conversations (
        id uuid primary key,
        workspace_id uuid not null references workspaces (id),
        environment text not null check (environment in ('live', 'test')),
        channel text not null,
        subject text,
        contact_id uuid,
        customer_handle text,
        status text not null check (status in ('open', 'closed')),
        assignee_id uuid,
        last_message_at timestamptz,
        closed_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index inbox_conversations_list on inbox_conversations (workspace_id, environment, id desc);

      create table inbox_messages (
        id uuid primary key,
        workspace_id uuid not null references workspaces (id),
        environment text not null check (environment in ('live', 'test')),
        conversation_id uuid not null references inbox_conversations (id),
        direction text not null check (direction in ('inbound', 'outbound')),
        text text not null,
        author_id uuid,
        created_at timestamptz not null
      );
      create index inbox_messages_list on inbox_messages (workspace_id, environment, id desc);
      create index inbox_messages_conversation on inbox_messages (conversation_id, id desc);

      create table hr_employees (
        id uuid primary key,
        workspace_id uuid not null references workspaces (id),
        environment text not null check (environment in ('live', 'test')),
        name text not null,
        email text,
        job_title text,
        department text,
        account_id uuid,
        manager_id uuid references hr_employees (id),
        hire_date date not null,
        status text not null check (status in ('active', 'terminated')),
        terminated_on date,
        termination_reason text,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index hr_employees_list on hr_employees (workspace_id, environment, id desc);
      -- A member is at most one active employee of a workspace and environment.
      create unique index hr_employees_account on hr_employees (workspace_id, environment, account_id)
        where account_id is not null and status = 'active';

      create table hr_attendance (
        id uuid primary key,
        workspace_id uuid not null references workspaces (id),
        environment text not null check (environment in ('live', 'test')),
        employee_id uuid not null references hr_employees (id),
        check_in timestamptz not null,
        check_out timestamptz check (check_out > check_in),
        note text,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index hr_attendance_list on hr_attendance (workspace_id, environment, check_in desc, id desc);
      -- One open check-in per employee.
      create unique index hr_attendance_open on hr_attendance (employee_id) where check_out is null;

      create table hr_leaves (
        id uuid primary key,
        workspace_id uuid not null references workspaces (id),
        environment text not null check (environment in ('live', 'test')),
        employee_id uuid not null references hr_employees (id),
        type text not null,
        start_date date not null,
        end_date date not null check (end_date >= start_date),
        reason text,
        status text not null check (status in ('requested', 'approved', 'rejected')),
        decided_by uuid,
        decided_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index hr_leaves_list on hr_leaves (workspace_id, environment, id desc);
      create index hr_leaves_employee on hr_leaves (employee_id, start_date);

      create table tickets (
        id uuid primary key,
        workspace_id uuid not null references workspaces (id),
        environment text not null check (environment in ('live', 'test')),
        subject text not null,
        description text,
        priority text not null check (priority in ('low', 'normal', 'high', 'urgent')),
        status text not null check (status in ('open', 'pending', 'resolved', 'closed')),
        assignee_id uuid,
        contact_id uuid,
        sla_due_at timestamptz not null,
        -- set once, by the SLA timer, in the transaction that writes ticket.sla_breached
        sla_breached_at timestamptz,
        resolved_at timestamptz,
        closed_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index tickets_list on tickets (workspace_id, environment, id desc);
      -- The sweep that catches timers lost between commit and queueing reads this.
      create index tickets_sla_pending on tickets (sla_due_at) where sla_breached_at is null and status in ('open', 'pending');

      create table ticket_comments (
        id uuid primary key,
        ticket_id uuid not null references tickets (id),
        workspace_id uuid not null references workspaces (id),
        environment text not null check (environment in ('live', 'test')),
        body text not null,
        author_id uuid,
        internal boolean not null,
        created_at timestamptz not null
      );
      create index ticket_comments_ticket on ticket_comments (ticket_id, id);

      create table approvals (
        id uuid primary key,
        workspace_id uuid not null references workspaces (id),
        environment text not null check (environment in ('live', 'test')),
        title text not null,
        description text,
        requested_by uuid not null,
        -- one approver per step, in order
        approver_ids uuid[] not null check (cardinality(approver_ids) between 1 and 10),
        status text not null check (status in ('pending', 'approved', 'rejected', 'cancelled')),
        -- 1-based; null once the request has ended
        current_step integer,
        completed_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index approvals_list on approvals (workspace_id, environment, id desc);

      create table approval_decisions (
        id uuid primary key,
        approval_id uuid not null references approvals (id),
        step integer not null,
        approver_id uuid not null,
        decision text not null check (decision in ('approve', 'reject')),
        comment text,
        created_at timestamptz not null,
        unique (approval_id, step)
      );
    `);
  }
}
