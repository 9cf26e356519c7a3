/**
 * Claims on the lifecycle engine's rows. A handler's project work (migrations, a database made or dropped) runs with
 * no store transaction open: the engine first claims the row in a short transaction (`claim_token`, `claimed_until`,
 * `attempts`), runs the work, then records the outcome in a second short transaction that finds the row still
 * claimed by that token. `claimed_until` is a lease the running process renews: once it has passed (the process
 * stopped between run and record), any process may claim the row again. A project with a live claim gets no other
 * row run, so its rows stay one at a time and in order.
 */
export default /* sql */ `
alter table lifecycle_transitions add column claim_token text;
alter table lifecycle_transitions add column claimed_until timestamptz;
alter table lifecycle_transitions add column attempts integer not null default 0;
create index lifecycle_transitions_claimed_idx on lifecycle_transitions(project_id) where claimed_until is not null;
`
