/**
 * Realtime: the keys one tracked presence object may have (the platform's "presence keys per object"), a project
 * setting like the other limits of project_realtime_config; null takes the default (features/realtime/limits.ts).
 */
export default /* sql */ `
alter table project_realtime_config
  add column max_presence_keys_per_object integer check (max_presence_keys_per_object between 1 and 100);
`
