/**
 * Accounts hardening: personal access tokens may expire; failed sign-ins are counted in the store, so that
 * several processes on one PostgreSQL throttle together (see features/session/throttle.ts).
 */
export default /* sql */ `
alter table access_tokens add column expires_at timestamptz;

-- One row per throttled key ('account:<e-mail>' or 'address:<client address>') with failures in the current window.
create table sign_in_failures (
  key text primary key,
  failures integer not null check (failures >= 0),
  window_started_at timestamptz not null
);
create index sign_in_failures_window_idx on sign_in_failures(window_started_at);
`
