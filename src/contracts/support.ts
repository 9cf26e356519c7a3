/**
 * Support tickets sent from /support/new, kept by the platform and listed on /support.
 *   POST /platform/support/tickets   CreateTicketBody → SupportTicket (201)
 *   GET  /platform/support/tickets   → SupportTicket[] (the person's own, newest first)
 * A ticket may name a project (its ref); it must be one of the person's projects.
 */
import * as z from 'zod/mini'

export const SUPPORT_CATEGORIES = ['Problem', 'Database_unresponsive', 'Performance', 'Billing', 'Login_issues'] as const
export const SupportCategory = z.enum(SUPPORT_CATEGORIES)
export type SupportCategory = z.infer<typeof SupportCategory>

export const CreateTicketBody = z.object({
  category: SupportCategory,
  /** '' or absent: no project. */
  project_ref: z.optional(z.string().check(z.regex(/^([a-z]{20})?$/, 'project_ref: a project reference of 20 lower-case letters'))),
  subject: z.string().check(z.trim(), z.minLength(1, 'Subject is required'), z.maxLength(200, 'Subject: at most 200 characters')),
  message: z.string().check(z.trim(), z.minLength(1, 'Message is required'), z.maxLength(5000, 'Message: at most 5,000 characters')),
})
export type CreateTicketBody = z.infer<typeof CreateTicketBody>

export const SupportTicket = z.object({
  id: z.string(),
  category: SupportCategory,
  project_ref: z.nullable(z.string()),
  subject: z.string(),
  message: z.string(),
  created_at: z.string(),
})
export type SupportTicket = z.infer<typeof SupportTicket>
export const SupportTicketList = z.array(SupportTicket)
