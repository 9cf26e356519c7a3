/**
 * Schema realtime of every project database, as the platform's realtime service lays it out:
 *  - `realtime.messages`: the rows whose row level security policies decide who may read (join) and write (send
 *    to) a private channel; `realtime.topic()` is the channel's topic while a policy is checked;
 *  - the `supabase_realtime` publication: the tables whose changes `postgres_changes` subscribers receive;
 *  - `realtime.capture_change()`: the trigger function that captures a change of a published table and announces it
 *    with NOTIFY on the channel `realtime_changes` when its transaction commits (the realtime service installs it on
 *    the published tables a subscriber asks for). The row goes along as JSON; past NOTIFY's size only its primary key
 *    does, with the platform's 413 error, so the subscriber still learns that the row changed.
 * Every statement is idempotent: the template runs it once, and a project database that predates it gets it when its
 * engine opens it (upgrades.ts).
 */
export const REALTIME_CHANGES_CHANNEL = 'realtime_changes'

export const REALTIME_SCHEMA_SQL = `
create schema if not exists realtime;
grant usage on schema realtime to anon, authenticated, service_role;

create table if not exists realtime.messages (
  id uuid not null default gen_random_uuid() primary key,
  topic text not null,
  extension text not null,
  payload jsonb null,
  event text null,
  private boolean null default false,
  updated_at timestamp not null default now(),
  inserted_at timestamp not null default now()
);
comment on table realtime.messages is 'Realtime messages: its row level security policies decide who may join and send to private channels.';
alter table realtime.messages enable row level security;
grant select, insert, update, delete on realtime.messages to anon, authenticated, service_role;

create or replace function realtime.topic() returns text language sql stable as $$
  select nullif(current_setting('realtime.topic', true), '')
$$;
grant execute on function realtime.topic() to anon, authenticated, service_role;

-- A probe row for a private channel's read check, written past row level security and rolled back by the caller.
create or replace function realtime.authorization_probe(topic text, extension text) returns uuid
  language sql volatile security definer set search_path = '' as $$
  insert into realtime.messages (topic, extension, private) values (topic, extension, true) returning id
$$;
revoke execute on function realtime.authorization_probe(text, text) from public;

create or replace function realtime.capture_change() returns trigger
  language plpgsql security definer set search_path = '' as $$
declare
  rec jsonb;
  old_rec jsonb;
  keys jsonb;
  payload text;
  ident "char";
begin
  if not exists (
    select from pg_catalog.pg_publication p
    left join pg_catalog.pg_publication_rel r on r.prpubid = p.oid and r.prrelid = tg_relid
    where p.pubname = 'supabase_realtime' and (p.puballtables or r.prrelid is not null)
  ) then
    return null;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then rec := to_jsonb(new); end if;
  select coalesce(jsonb_object_agg(a.attname, coalesce(rec, to_jsonb(old)) -> a.attname::text), '{}'::jsonb) into keys
    from pg_catalog.pg_index i
    join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
    where i.indrelid = tg_relid and i.indisprimary;
  if tg_op in ('UPDATE', 'DELETE') then
    select c.relreplident into ident from pg_catalog.pg_class c where c.oid = tg_relid;
    -- As logical decoding sees it: the whole old row with replica identity full, else its primary key only.
    if ident = 'f' then old_rec := to_jsonb(old);
    else
      select coalesce(jsonb_object_agg(a.attname, to_jsonb(old) -> a.attname::text), '{}'::jsonb) into old_rec
        from pg_catalog.pg_index i
        join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
        where i.indrelid = tg_relid and i.indisprimary;
    end if;
  end if;
  payload := jsonb_build_object(
    'schema', tg_table_schema, 'table', tg_table_name, 'type', tg_op,
    'commit_timestamp', to_char(pg_catalog.clock_timestamp() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'record', rec, 'old_record', old_rec, 'keys', keys, 'errors', null)::text;
  if octet_length(payload) > 7900 then
    payload := jsonb_build_object(
      'schema', tg_table_schema, 'table', tg_table_name, 'type', tg_op,
      'commit_timestamp', to_char(pg_catalog.clock_timestamp() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'record', case when rec is null then null else keys end, 'old_record', case when old_rec is null then null else keys end,
      'keys', keys, 'errors', jsonb_build_array('Error 413: Payload Too Large'))::text;
  end if;
  perform pg_catalog.pg_notify('${REALTIME_CHANGES_CHANNEL}', payload);
  return null;
end
$$;

do $$
begin
  if not exists (select from pg_catalog.pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
end
$$;
`
