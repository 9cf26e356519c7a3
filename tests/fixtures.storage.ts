/** Fixtures of a project's storage buckets and edge functions (the Storage and Edge Functions page tests). */
import type { FunctionResponse } from '../src/contracts/functions'
import type { Bucket } from '../src/contracts/storage'

const bucket = (name: string, more: Partial<Bucket> = {}): Bucket => ({
  id: name,
  name,
  owner: '',
  public: false,
  allowed_mime_types: null,
  file_size_limit: null,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  ...more,
})

/** Public, every type, no limit. */
export const AVATARS = bucket('avatars', { public: true })
/** Private, two types, 50 MB. */
export const RECEIPTS = bucket('receipts', { allowed_mime_types: ['application/pdf', 'image/*'], file_size_limit: 50 * 1024 * 1024 })
/** Private, no type allowed ([]), 1.5 GB. */
export const LOCKED = bucket('locked', { allowed_mime_types: [], file_size_limit: 1.5 * 1024 ** 3 })
export const BUCKETS: Bucket[] = [AVATARS, RECEIPTS, LOCKED]

/** A bucket as the server answers a create of `name`. */
export const createdBucket = (name: string, more: Partial<Bucket> = {}) => bucket(name, more)

export const TENANT_CONFIG_NOT_FOUND = 'Tenant config for abcdefghijklmnopqrst not found'

const fn = (slug: string, more: Partial<FunctionResponse> = {}): FunctionResponse => ({
  id: `00000000-0000-4000-8000-${slug.length.toString().padStart(12, '0')}`,
  slug,
  name: slug,
  status: 'ACTIVE',
  version: 1,
  created_at: Date.UTC(2026, 10, 1, 10, 0),
  updated_at: Date.UTC(2026, 10, 2, 9, 30),
  verify_jwt: true,
  ...more,
})

export const HELLO_WORLD = fn('hello-world', { version: 3 })
export const STRIPE_WEBHOOK = fn('stripe-webhook', { id: '00000000-0000-4000-8000-000000000099', name: 'Stripe webhook', verify_jwt: false, status: 'THROTTLED', updated_at: Date.UTC(2026, 11, 24, 18, 5) })
export const FUNCTIONS: FunctionResponse[] = [HELLO_WORLD, STRIPE_WEBHOOK]
