/**
 * Storage and edge functions.
 *  - projects.storage_enabled: false for a project whose storage tenant is not configured; its bucket endpoints
 *    answer 404 'Tenant config for <ref> not found' (the buckets themselves live in the project's own database,
 *    table storage.buckets, made by the project database template).
 *  - edge_functions: a project's edge functions in the Management API's shape (FunctionResponse), with their source
 *    body. They are kept in the platform store, not in the project's database: like the platform's, they exist
 *    whatever the project's status. Running them is not built.
 */
export default /* sql */ `
alter table projects add column storage_enabled boolean not null default true;

create table edge_functions (
  id uuid primary key,
  project_id integer not null references projects(id) on delete cascade,
  slug text not null check (slug ~ '^[A-Za-z][A-Za-z0-9_-]*$'),
  name text not null,
  status text not null default 'ACTIVE' check (status in ('ACTIVE', 'REMOVED', 'THROTTLED')),
  version integer not null default 1 check (version > 0),
  verify_jwt boolean not null default true,
  import_map boolean not null default false,
  entrypoint_path text not null,
  import_map_path text,
  body text not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  unique (project_id, slug)
);
`
