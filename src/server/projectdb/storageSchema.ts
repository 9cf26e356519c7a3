/**
 * Storage's tables and helpers in every project database, laid out as the platform's storage service has them:
 * `storage.objects` (one row per object: its bucket, its name — the path in the bucket —, owner, metadata and the
 * `path_tokens` of its name), and `storage.foldername()`, `storage.filename()`, `storage.extension()` for policies.
 * Row level security is on for both tables with no policy, as on the platform: anon and authenticated callers see
 * and change nothing until the project writes a policy; service_role bypasses it. Part of the template (template.ts),
 * and brought to a database made before it by the projectdb upgrades (upgrades.ts): so the script is idempotent.
 */
export const STORAGE_SCHEMA_SQL = `
grant usage on schema storage to anon, authenticated;
grant all on storage.buckets to anon, authenticated;
alter table storage.buckets enable row level security;
create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  user_metadata jsonb
);
comment on table storage.objects is 'Objects of the storage buckets: the bytes live in the storage service, this row says where.';
create unique index if not exists bucketid_objname on storage.objects (bucket_id, name);
create index if not exists name_prefix_search on storage.objects (name text_pattern_ops);
alter table storage.objects enable row level security;
grant all on storage.objects to anon, authenticated, service_role;

create or replace function storage.foldername(name text) returns text[] language plpgsql immutable as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[1:array_length(_parts, 1) - 1];
end
$$;
create or replace function storage.filename(name text) returns text language plpgsql immutable as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[array_length(_parts, 1)];
end
$$;
create or replace function storage.extension(name text) returns text language plpgsql immutable as $$
declare
  _parts text[];
  _filename text;
begin
  select string_to_array(name, '/') into _parts;
  select _parts[array_length(_parts, 1)] into _filename;
  return reverse(split_part(reverse(_filename), '.', 1));
end
$$;
-- Whether a bucket holds objects, including those the caller's policies hide (deleting the bucket would orphan them).
create or replace function storage.bucket_holds_objects(bucket text) returns boolean language sql stable security definer
  set search_path = '' as $$
  select exists (select from storage.objects where bucket_id = bucket)
$$;
grant execute on function storage.foldername(text), storage.filename(text), storage.extension(text) to anon, authenticated, service_role;
`
