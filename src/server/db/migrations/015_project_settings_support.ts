/**
 * A project's custom hostname and add-ons, and support tickets.
 *  - project_custom_hostnames: at most one per project, set with the development control; its status is the
 *    Management API's (5_services_reconfigured = active).
 *  - project_addons: the add-ons a project has (PITR and its variant), changed on paid plans only.
 *  - support_tickets: what a person sent from /support/new, optionally about one of their projects.
 */
export default /* sql */ `
create table project_custom_hostnames (
  project_id integer primary key references projects(id) on delete cascade,
  id uuid not null,
  hostname text not null,
  status text not null check (status in ('1_not_started', '2_initiated', '3_challenge_verified',
    '4_origin_setup_completed', '5_services_reconfigured')),
  updated_at timestamptz not null
);

create table project_addons (
  project_id integer not null references projects(id) on delete cascade,
  type text not null check (type in ('pitr')),
  variant text not null check (variant in ('pitr_7', 'pitr_14', 'pitr_28')),
  inserted_at timestamptz not null,
  primary key (project_id, type)
);

create table support_tickets (
  id uuid primary key,
  account_id integer not null references accounts(id) on delete cascade,
  category text not null,
  project_ref text,
  subject text not null,
  message text not null,
  created_at timestamptz not null
);
create index support_tickets_account on support_tickets (account_id, created_at desc);
`
