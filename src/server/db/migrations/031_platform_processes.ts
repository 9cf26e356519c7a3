/**
 * The platform's processes on this store, each a row it renews while it runs (core/processes.ts): a row that is not
 * renewed past its window is a process that stopped without saying so (killed), and what the other processes keep
 * on its behalf (the realtime presence it relayed) is dropped.
 */
export default /* sql */ `
create table platform_processes (
  id text primary key,
  seen_at timestamptz not null
);
`
