/**
 * The projects' auth service, as far as the platform keeps it (a project's users live in the project's own
 * database, schema auth): its settings (a row per project once changed; absent means the defaults), the local
 * mailbox (every e-mail the service sends when no SMTP server is configured, the last 200 of each project kept),
 * the monthly active users (one row per user and month in which they signed in or refreshed a session), and the
 * sign-in attempts the throttle counts.
 */
export default /* sql */ `
create table project_auth_settings (
  project_id integer primary key references projects(id) on delete cascade,
  site_url text not null default 'http://localhost:3000',
  uri_allow_list text not null default '',
  disable_signup boolean not null default false,
  mailer_autoconfirm boolean not null default false,
  jwt_exp integer not null default 3600,
  password_min_length integer not null default 6,
  -- Per address and 5 minutes: sign-ups and password sign-ins; refreshed sessions; OTP and link verifications.
  rate_limit_verify integer not null default 30,
  rate_limit_token_refresh integer not null default 150,
  rate_limit_otp integer not null default 30,
  -- Per project and hour: e-mails sent.
  rate_limit_email_sent integer not null default 30,
  updated_at timestamptz not null default now()
);

create table project_auth_mailbox (
  id bigserial primary key,
  project_id integer not null references projects(id) on delete cascade,
  recipient text not null,
  subject text not null,
  body text not null,
  link text,
  kind text not null,
  sent_at timestamptz not null default now()
);
create index project_auth_mailbox_project_idx on project_auth_mailbox(project_id, id desc);

create table project_auth_active_users (
  project_id integer not null references projects(id) on delete cascade,
  period date not null,
  user_id uuid not null,
  primary key (project_id, period, user_id)
);
`
