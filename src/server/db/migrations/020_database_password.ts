/**
 * A project's database password, for the Postgres wire port (features/wire): only its SCRAM-SHA-256 verifier
 * (RFC 5803, the form PostgreSQL keeps in pg_authid), never the password. A project without a row has no password
 * yet: the port refuses every login to it until one is set (at creation, or by a reset).
 */
export default /* sql */ `
create table project_db_passwords (
  project_id integer primary key references projects(id) on delete cascade,
  verifier text not null check (verifier like 'SCRAM-SHA-256$%'),
  updated_at timestamptz not null
);
`
