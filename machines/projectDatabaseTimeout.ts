/**
 * How long the dashboard waits for a request the platform answers from the project's own database (its settings,
 * tables, objects, users). The platform may first wait for a free database slot (PROJECT_DB_SLOT_WAIT_MS, 10 s by
 * default), open the database (seconds when the machine is busy) and then run statements bounded by
 * PROJECT_DB_QUERY_TIMEOUT_MS (15 s): a shorter wait here abandons requests the platform is still serving within its
 * own bounds, and shows "The request timed out" where the platform would have answered, or said why it could not.
 */
export const PROJECT_DATABASE_TIMEOUT_MS = 30_000
