/**
 * The buckets query's retry rule (spec 8, spec 9): a failed read is retried at most 3 times, and never when the
 * message begins 'Tenant config' and ends 'not found' (the project's storage is disabled: asking again cannot help).
 * Used by every machine that reads a project's buckets (the API docs panel, the Storage page).
 */
import { isTenantConfigNotFound } from '../src/contracts/storage'

export const BUCKETS_MAX_RETRIES = 3

/** Milliseconds before retry n (1-based): 1 s, 2 s, 4 s. */
export const bucketRetryDelay = (retry: number) => 1000 * 2 ** (retry - 1)

const messageOf = (error: unknown) => (error instanceof Error ? error.message : typeof error === 'string' ? error : '')

/** Whether a read that failed with `error` after `retriesSoFar` retries is tried again. */
export function shouldRetryBuckets(retriesSoFar: number, error: unknown): boolean {
  return retriesSoFar < BUCKETS_MAX_RETRIES && !isTenantConfigNotFound(messageOf(error))
}
