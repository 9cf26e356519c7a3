/**
 * Sessions remember their last use (the idle timeout), and the tables the server caches in memory announce their
 * changes: a trigger sends `pg_notify('kp_changes', '<what>:<id>')` on commit, so every process on the database —
 * this one included, before its COMMIT returns — drops what it cached (src/server/core/cache.ts).
 * Payloads: `p:<project id>`, `o:<organization id>`, `m:<account id>` (a membership of the account),
 * `a:<account id>`, `s:<session token hash>`.
 */
export default /* sql */ `
alter table sessions add column last_used_at timestamptz not null default now();
update sessions set last_used_at = created_at;
create index sessions_expires_idx on sessions(expires_at);
create index sessions_last_used_idx on sessions(last_used_at);

create function kp_notify_project() returns trigger language plpgsql as $$
begin
  perform pg_notify('kp_changes', 'p:' || old.id);
  return null;
end $$;
create trigger projects_changed after update or delete on projects
  for each row execute function kp_notify_project();

create function kp_notify_organization() returns trigger language plpgsql as $$
begin
  perform pg_notify('kp_changes', 'o:' || old.id);
  return null;
end $$;
create trigger organizations_changed after update or delete on organizations
  for each row execute function kp_notify_organization();

create function kp_notify_member() returns trigger language plpgsql as $$
begin
  if TG_OP <> 'INSERT' then perform pg_notify('kp_changes', 'm:' || old.account_id); end if;
  if TG_OP <> 'DELETE' then perform pg_notify('kp_changes', 'm:' || new.account_id); end if;
  return null;
end $$;
create trigger members_changed after insert or update or delete on members
  for each row execute function kp_notify_member();

create function kp_notify_account() returns trigger language plpgsql as $$
begin
  perform pg_notify('kp_changes', 'a:' || old.id);
  return null;
end $$;
create trigger accounts_changed after update or delete on accounts
  for each row execute function kp_notify_account();

-- Recording a session's last use is not a change anyone cached: only its end or a new owner or expiry is.
create function kp_notify_session() returns trigger language plpgsql as $$
begin
  perform pg_notify('kp_changes', 's:' || old.token_hash);
  return null;
end $$;
create trigger sessions_deleted after delete on sessions
  for each row execute function kp_notify_session();
create trigger sessions_changed after update of token_hash, account_id, expires_at on sessions
  for each row execute function kp_notify_session();
`
