/**
 * Accounts and members: invitations to an organization. Only a SHA-256 hash of each invitation's secret is
 * kept; the link carries `<id>.<secret>`. An invitation is pending until accepted or past `expires_at`.
 */
export default /* sql */ `
create table invitations (
  id integer generated always as identity primary key,
  organization_id integer not null references organizations(id) on delete cascade,
  email text not null,
  role text not null check (role in ('Owner', 'Administrator', 'Developer', 'Read-only')),
  secret_hash text not null,
  invited_by integer references accounts(id) on delete set null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  accepted_at timestamptz,
  accepted_by integer references accounts(id) on delete set null
);
create index invitations_organization_idx on invitations(organization_id);
`
