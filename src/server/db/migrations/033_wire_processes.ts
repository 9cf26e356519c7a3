/**
 * The Postgres port's listeners are platform processes like any other (core/processes.ts): each counts its clients
 * under its entry in platform_processes, renewed and judged by the one scheme, and its counts go with the entry.
 * Counts held under the old listener rows belonged to processes that stopped to run this migration.
 */
export default /* sql */ `
delete from wire_client_counts;
alter table wire_client_counts drop constraint wire_client_counts_listener_id_fkey;
alter table wire_client_counts rename column listener_id to process_id;
alter table wire_client_counts
  add constraint wire_client_counts_process_id_fkey foreign key (process_id) references platform_processes(id) on delete cascade;
drop table wire_listeners;
`
