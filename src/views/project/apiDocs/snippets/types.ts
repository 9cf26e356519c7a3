/**
 * What the API docs panel shows as code: each snippet in JavaScript (`@supabase/supabase-js`, with a `supabase`
 * client in scope, made by the Connect page's snippet) and in Bash (curl against the project URL). The snippet
 * builders (./index.ts) are pure: the same docs entity and context always give the same text.
 */

export interface SnippetContext {
  /** The project URL, the client's `supabaseUrl`: `{origin}/p/{ref}` (no trailing slash). */
  projectUrl: string
  /** The key the snippets carry as the anon key: the real one when keys are shown, else a placeholder. */
  anonKey: string
  /** The service_role key when shown to a person with the permission; otherwise a placeholder. */
  serviceKey: string
}

/** The placeholders printed while keys are hidden (and the service key for a person without the permission). */
export const KEY_PLACEHOLDERS = { anonKey: 'SUPABASE_KEY', serviceKey: 'SERVICE_KEY' } as const

export interface Snippet {
  /** The anchor of the snippet on its page (unique there): 'read-all-rows', 'insert-a-row' … */
  id: string
  title: string
  /** Prose above the code (plain text; may hold several paragraphs separated by a blank line). */
  description?: string
  /** null where the language has no form of it (realtime has no curl form). */
  js: string | null
  bash: string | null
}
