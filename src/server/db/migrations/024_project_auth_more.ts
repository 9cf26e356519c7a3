/**
 * More of the projects' auth service in the platform's store: the counters of its rate limits (a row per project and
 * key, in a fixed window), kept here rather than in a process's memory so that they survive a restart and are shared
 * by every process on one PostgreSQL; the leaked-password rule and the phone provider among its settings; and the
 * channel of a message of the local mailbox (an e-mail, or a text message to a phone).
 */
export default /* sql */ `
create table project_auth_rate_limits (
  project_id integer not null references projects(id) on delete cascade,
  key text not null,
  hits integer not null,
  window_started_at timestamptz not null,
  primary key (project_id, key)
);
create index project_auth_rate_limits_window_idx on project_auth_rate_limits(window_started_at);

alter table project_auth_settings add column password_hibp_enabled boolean not null default false;
alter table project_auth_settings add column external_phone_enabled boolean not null default false;
alter table project_auth_settings add column sms_autoconfirm boolean not null default false;
-- Per project and hour: text messages sent.
alter table project_auth_settings add column rate_limit_sms_sent integer not null default 30;

alter table project_auth_mailbox add column channel text not null default 'email' check (channel in ('email', 'sms'));
`
