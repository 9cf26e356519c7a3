/**
 * Organization settings, plans and AI settings.
 *  - ai_settings: a person's 'send anonymous schema metadata to the AI' setting for one project. Whether it applies
 *    also depends on the project's organization having opted in to AI_SQL (organizations.opt_in_tags), which the
 *    dashboard's platform build checks; the row keeps the person's own choice either way.
 *  - organizations.plan_changed_at: when the plan last changed (null: never since it was created).
 * Renames, opt-ins and plan changes update organizations, whose trigger (migration 008) drops cached copies.
 */
export default /* sql */ `
create table ai_settings (
  account_id integer not null references accounts(id) on delete cascade,
  project_id integer not null references projects(id) on delete cascade,
  send_anonymous_schema_metadata boolean not null,
  updated_at timestamptz not null,
  primary key (account_id, project_id)
);
create index ai_settings_project on ai_settings (project_id);

alter table organizations add column plan_changed_at timestamptz;
`
