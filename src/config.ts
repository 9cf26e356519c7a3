/**
 * Build-time configuration of the dashboard. The two API bases come from the environment so the same build
 * can be pointed at another platform: VITE_PLATFORM_URL ({platform} in the spec), VITE_API_URL ({api}).
 */
const env = import.meta.env

export const config = {
  platformUrl: (env.VITE_PLATFORM_URL as string | undefined) ?? '/platform',
  apiUrl: (env.VITE_API_URL as string | undefined) ?? '/v1',
  /** Hosted platform build (default) vs self-hosted build: the spec hides some entries in the latter. */
  isPlatform: (env.VITE_BUILD_TARGET as string | undefined) !== 'self-hosted',
  /** Production build: the SQL editor lives at /sql/new; in other builds at /sql/1. */
  isProduction: env.PROD,
  /** Products that can be switched off per deployment; a disabled one disappears from the navigation. */
  features: {
    auth: (env.VITE_FEATURE_AUTH as string | undefined) !== 'false',
    storage: (env.VITE_FEATURE_STORAGE as string | undefined) !== 'false',
    edgeFunctions: (env.VITE_FEATURE_EDGE_FUNCTIONS as string | undefined) !== 'false',
    realtime: (env.VITE_FEATURE_REALTIME as string | undefined) !== 'false',
  },
} as const
