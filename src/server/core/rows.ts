/** Row shapes and conversions every feature shares. */

/** A timestamp column (Date from pg, string from PGlite JSON) as an ISO string. */
export function iso(value: unknown): string {
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString()
}

/** The signed-in person (set on the request by the session and bearer middlewares). */
export interface AccountRow {
  id: number
  username: string
  primary_email: string
}
