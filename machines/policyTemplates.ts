/**
 * The templates a new policy starts from (the Policies page's 'New policy'), as the platform offers them: each fills
 * the form, which stays editable, and its SQL is shown before it runs. `user_id` is the column the templates that
 * compare with the signed-in user expect; the form lets the person name another.
 */
import type { PolicyDraft } from './databaseObjects.machine'

export interface PolicyTemplate {
  id: string
  name: string
  description: string
  draft: Omit<PolicyDraft, 'table' | 'editing'>
}

export const POLICY_TEMPLATES: readonly PolicyTemplate[] = [
  {
    id: 'read-all',
    name: 'Enable read access for all users',
    description: 'Anyone, signed in or not, may read every row.',
    draft: { name: 'Enable read access for all users', command: 'SELECT', roles: 'public', using: 'true', check: '' },
  },
  {
    id: 'insert-authenticated',
    name: 'Enable insert for authenticated users only',
    description: 'Only a signed-in user may add rows.',
    draft: { name: 'Enable insert for authenticated users only', command: 'INSERT', roles: 'authenticated', using: '', check: 'true' },
  },
  {
    id: 'update-own',
    name: 'Enable update for users based on user_id',
    description: 'A signed-in user may change the rows whose user_id is theirs.',
    draft: {
      name: 'Enable update for users based on user_id',
      command: 'UPDATE',
      roles: 'authenticated',
      using: '(select auth.uid()) = user_id',
      check: '(select auth.uid()) = user_id',
    },
  },
  {
    id: 'delete-own',
    name: 'Enable delete for users based on user_id',
    description: 'A signed-in user may delete the rows whose user_id is theirs.',
    draft: { name: 'Enable delete for users based on user_id', command: 'DELETE', roles: 'authenticated', using: '(select auth.uid()) = user_id', check: '' },
  },
]

/** An empty form for a policy of one's own. */
export const BLANK_POLICY: PolicyTemplate['draft'] = { name: '', command: 'SELECT', roles: '', using: '', check: '' }
