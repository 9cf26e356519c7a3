/**
 * A project's settings pages beyond API keys: its custom domain, its add-ons and how its database is reached.
 *   GET  /v1/projects/{ref}/custom-hostname            → CustomHostnameResponse (the Management API's
 *        UpdateCustomHostnameResponse); without one: 400 'The project has no custom hostname configuration'; on the
 *        free plan: 400 '… is not allowed to set up custom domain' (the dashboard maps both to pseudo-statuses).
 *   POST /dev/projects/{ref}/custom-hostname           DevCustomHostnameBody → CustomHostnameResponse | { hostname: null }
 *   GET  /platform/projects/{ref}/billing/addons       → ProjectAddons
 *   POST /platform/projects/{ref}/billing/addons       UpdateAddonBody → ProjectAddons (paid plans; Owner or Administrator)
 *   DELETE /platform/projects/{ref}/billing/addons/{addon_type} → ProjectAddons
 *   GET  /platform/projects/{ref}/settings/database    → DatabaseConnection (read from the project's own database)
 */
import * as z from 'zod/mini'

export const CUSTOM_HOSTNAME_STATUSES = [
  '1_not_started',
  '2_initiated',
  '3_challenge_verified',
  '4_origin_setup_completed',
  '5_services_reconfigured',
] as const
export const CustomHostnameStatus = z.enum(CUSTOM_HOSTNAME_STATUSES)
export type CustomHostnameStatus = z.infer<typeof CustomHostnameStatus>

/** The Management API's UpdateCustomHostnameResponse (the fields the contract requires, the rest optional). */
export const CustomHostnameResponse = z.object({
  status: CustomHostnameStatus,
  custom_hostname: z.string(),
  data: z.object({
    success: z.boolean(),
    errors: z.array(z.unknown()),
    messages: z.array(z.unknown()),
    result: z.object({
      id: z.string(),
      hostname: z.string(),
      ssl: z.object({
        status: z.string(),
        validation_records: z.array(z.object({ txt_name: z.string(), txt_value: z.string() })),
        validation_errors: z.optional(z.array(z.object({ message: z.string() }))),
      }),
      ownership_verification: z.object({ type: z.string(), name: z.string(), value: z.string() }),
      custom_origin_server: z.string(),
      verification_errors: z.optional(z.array(z.string())),
      status: z.string(),
    }),
  }),
})
export type CustomHostnameResponse = z.infer<typeof CustomHostnameResponse>

/** A host name: labels of letters, digits and hyphens, at least two of them, at most 253 characters. */
export const Hostname = z.string().check(
  z.maxLength(253, 'hostname: at most 253 characters'),
  z.regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'hostname: a domain name such as api.example.com, in lower case'),
)

/** null removes the project's custom hostname; status defaults to the one where it is active. */
export const DevCustomHostnameBody = z.object({
  hostname: z.nullable(Hostname),
  status: z.optional(CustomHostnameStatus),
})
export type DevCustomHostnameBody = z.infer<typeof DevCustomHostnameBody>
export const DevCustomHostnameResponse = z.union([CustomHostnameResponse, z.object({ hostname: z.null() })])

export const AddonType = z.enum(['pitr'])
export type AddonType = z.infer<typeof AddonType>
export const PITR_VARIANTS = ['pitr_7', 'pitr_14', 'pitr_28'] as const
export const AddonVariantId = z.enum(PITR_VARIANTS)
export type AddonVariantId = z.infer<typeof AddonVariantId>

export const AddonVariant = z.object({ identifier: AddonVariantId, name: z.string() })
export type AddonVariant = z.infer<typeof AddonVariant>

export const ProjectAddons = z.object({
  ref: z.string(),
  selected_addons: z.array(z.object({ type: AddonType, variant: AddonVariant })),
  available_addons: z.array(z.object({ type: AddonType, name: z.string(), variants: z.array(AddonVariant) })),
})
export type ProjectAddons = z.infer<typeof ProjectAddons>

export const UpdateAddonBody = z.object({ addon_type: AddonType, addon_variant: AddonVariantId })
export type UpdateAddonBody = z.infer<typeof UpdateAddonBody>

/** How the project's database is reached, read from the database itself (never its password). */
export const DatabaseConnection = z.object({
  /** 'pglite': an embedded database inside the platform's process, no network port; 'postgres': a database on a server. */
  engine: z.enum(['pglite', 'postgres']),
  server_version: z.string(),
  database: z.string(),
  user: z.string(),
  /**
   * Where clients connect: the platform's Postgres port (user postgres.<ref>, the database password) when it listens;
   * without it, the PostgreSQL server itself, and null on PGlite (nothing listens then).
   */
  host: z.nullable(z.string()),
  port: z.nullable(z.number().check(z.int())),
  /** postgresql://user:[YOUR-PASSWORD]@host:port/database, or null when nothing listens. */
  connection_string: z.nullable(z.string()),
  /** Enabled: the connection goes through the platform's Postgres port, which routes by user name as a pooler does. */
  pooler: z.object({ enabled: z.boolean() }),
  max_connections: z.number().check(z.int()),
  size_bytes: z.number().check(z.int(), z.nonnegative()),
})
export type DatabaseConnection = z.infer<typeof DatabaseConnection>

/** Whether Point in Time Recovery is on (spec 3: a selected add-on of type 'pitr'); the branching modal's notice. */
export const hasPitr = (addons: ProjectAddons) => addons.selected_addons.some((addon) => addon.type === 'pitr')
