/** The demo's usable projects get a schema worth documenting; the key is stored in project_databases.demo_schema. */
export const demoSchemas: Record<string, string> = {}

export function demoSchemaSql(key: string | null): string | undefined {
  return key ? demoSchemas[key] : undefined
}
