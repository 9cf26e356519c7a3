/**
 * Verified e-mail addresses and tokens that expire.
 *  - accounts.email_verified_at: when the account proved it receives mail at its primary e-mail (an invitation is
 *    accepted only by a verified address). The demo accounts are verified; any other existing account is not until
 *    it opens a verification link, since nothing proved its address when it signed up.
 *  - email_verifications: the one outstanding verification link of an account (a new one replaces it); only the
 *    SHA-256 hash of its secret is kept, with the address it was sent to.
 *  - personal access tokens made without an expiry never expired: each now expires 90 days from this migration
 *    (ACCESS_TOKEN_DEFAULT_EXPIRY_DAYS' default), so their owners have time to replace them.
 */
export default /* sql */ `
alter table accounts add column email_verified_at timestamptz;
update accounts set email_verified_at = created_at
  where primary_email in ('owner@example.com', 'developer@example.com', 'readonly@example.com');

create table email_verifications (
  account_id integer primary key references accounts(id) on delete cascade,
  email text not null,
  secret_hash text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null
);

update access_tokens set expires_at = now() + interval '90 days' where expires_at is null;
`
