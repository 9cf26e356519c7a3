/**
 * Each edge function's log (its invocations with their status, duration, CPU time and memory, and its console,
 * boot and shutdown lines), the newest 1,000 per function: the runtime queues entries in memory and writes them here
 * in batches (a call never waits on the store), deleting beyond the newest 1,000 as it writes. The entries go with
 * their function (and so with its project) by cascade.
 *  - seq orders a function's entries as they were written; id is the entry's own (the platform's log ids are UUIDs).
 *  - at_ms is the platform clock's epoch milliseconds, which the analytics endpoints bucket and filter by.
 */
export default /* sql */ `
create table edge_function_logs (
  seq bigint generated always as identity primary key,
  id uuid not null unique,
  function_id uuid not null references edge_functions(id) on delete cascade,
  at_ms bigint not null,
  kind text not null check (kind in ('invocation', 'console', 'boot', 'shutdown')),
  level text not null check (level in ('log', 'info', 'error')),
  event_message text not null,
  method text,
  path text,
  version integer,
  status integer,
  duration_ms double precision check (duration_ms >= 0),
  cpu_time_ms double precision check (cpu_time_ms >= 0),
  memory_mb double precision check (memory_mb >= 0),
  heap_memory_mb double precision check (heap_memory_mb >= 0),
  external_memory_mb double precision check (external_memory_mb >= 0)
);
create index edge_function_logs_function_idx on edge_function_logs(function_id, seq desc);
create index edge_function_logs_time_idx on edge_function_logs(function_id, at_ms);
`
