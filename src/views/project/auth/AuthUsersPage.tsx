import { useSelector } from '@xstate/react'
import { useId, type FormEvent } from 'react'
import type { ActorRefFrom } from 'xstate'
import { providerLabel, selectAuthUsersView, type AddDraft, type AuthUsersView, type authUsersMachine } from '../../../../machines/authUsers.machine'
import type { AuthUser } from '../../../contracts/projectAuth'
import { Field, fieldAria } from '../../shell/Field'
import { Modal } from '../../shell/Modal'
import { useAppLogic } from '../../shell/logic'
import { Button, Card, DataList, ErrorPanel, InlineError, Loading, PageHeading, inputClass } from '../../shell/ui'
import { PAGE_CLASS } from '../ProjectMachinePage'
import { AuthMachinePage, Notice, whenLabel } from './AuthMachinePage'

export type AuthUsersActorRef = ActorRefFrom<typeof authUsersMachine>

const HEADING = { title: 'Users', description: 'The people who sign in to the project’s apps.' }
type Loaded = Extract<AuthUsersView, { phase: 'loaded' }>

/** /project/{ref}/auth/users */
export function AuthUsersPage() {
  const logic = useAppLogic()
  return (
    <AuthMachinePage
      machine={logic.authUsers}
      heading={HEADING}
      loadingLabel="Loading users…"
      input={(ref, canManage) => ({ ref, canManage })}
      render={(actor) => <AuthUsers actor={actor} />}
    />
  )
}

export function AuthUsers({ actor }: { actor: AuthUsersActorRef }) {
  const view = useSelector(actor, selectAuthUsersView)
  const canAdd = useSelector(actor, (s) => s.can({ type: 'add.open' }))
  return (
    <div className={PAGE_CLASS}>
      <PageHeading
        {...HEADING}
        actions={
          view.phase === 'loaded' && view.canManage ? (
            <Button variant="primary" disabled={!canAdd} onClick={() => actor.send({ type: 'add.open' })}>
              Add user
            </Button>
          ) : null
        }
      />
      {view.phase !== 'failed' ? <SearchForm actor={actor} value={view.searchDraft} /> : null}
      {view.phase === 'loading' ? <Loading label={view.keywords ? `Searching users for “${view.keywords}”…` : 'Loading users…'} /> : null}
      {view.phase === 'failed' ? <ErrorPanel title="Failed to load users" message={view.error} onRetry={() => actor.send({ type: 'users.retry' })} /> : null}
      {view.phase === 'loaded' ? (
        <div className="space-y-4">
          {view.notice ? <Notice>{view.notice}</Notice> : null}
          {!view.canManage ? <p className="text-sm text-neutral-600 dark:text-neutral-300">Your role can see the users but not change them.</p> : null}
          <UserList actor={actor} view={view} />
          <AddUserDialog actor={actor} add={view.add} />
          <UserPanel actor={actor} view={view} />
        </div>
      ) : null}
    </div>
  )
}

function SearchForm({ actor, value }: { actor: AuthUsersActorRef; value: string }) {
  const id = useId()
  const canSearch = useSelector(actor, (s) => s.can({ type: 'search.submit' }))
  function submit(event: FormEvent) {
    event.preventDefault()
    actor.send({ type: 'search.submit' })
  }
  return (
    <form role="search" aria-label="Search users" onSubmit={submit} className="mb-4 flex max-w-xl items-end gap-2">
      <div className="flex-1">
        <label htmlFor={id} className="sr-only">
          Search by e-mail
        </label>
        <input
          id={id}
          type="search"
          className={inputClass}
          placeholder="Search by e-mail"
          value={value}
          onChange={(event) => actor.send({ type: 'search.edit', keywords: event.target.value })}
        />
      </div>
      <Button type="submit" disabled={!canSearch}>
        Search
      </Button>
    </form>
  )
}

function UserList({ actor, view }: { actor: AuthUsersActorRef; view: Loaded }) {
  const canNext = useSelector(actor, (s) => s.can({ type: 'page.next' }))
  const canPrevious = useSelector(actor, (s) => s.can({ type: 'page.previous' }))
  if (view.users.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-neutral-300 p-8 text-center text-sm text-neutral-600 dark:border-neutral-700 dark:text-neutral-300">
        {view.keywords ? `No users match “${view.keywords}”.` : 'No users yet. They appear here when they sign up, or when you add them.'}
      </p>
    )
  }
  const first = (view.page - 1) * 50 + 1
  return (
    <Card>
      <div className="overflow-x-auto">
        <table aria-label="Users" className="min-w-full text-sm">
          <thead className="border-b border-neutral-200 text-left text-xs text-neutral-600 dark:border-neutral-800 dark:text-neutral-300">
            <tr>
              <th scope="col" className="px-5 py-2 font-medium">Email</th>
              <th scope="col" className="px-3 py-2 font-medium">Provider</th>
              <th scope="col" className="px-3 py-2 font-medium">Created</th>
              <th scope="col" className="px-3 py-2 font-medium">Last sign in</th>
              <th scope="col" className="px-5 py-2 font-medium"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-neutral-100 dark:divide-neutral-800">
            {view.users.map((user) => (
              <tr key={user.id}>
                <th scope="row" className="px-5 py-3 text-left font-medium">{user.email}</th>
                <td className="px-3 py-3">{providerLabel(user)}</td>
                <td className="px-3 py-3">{whenLabel(user.created_at)}</td>
                <td className="px-3 py-3">{user.last_sign_in_at ? whenLabel(user.last_sign_in_at) : 'Waiting for verification'}</td>
                <td className="px-5 py-3 text-right">
                  <Button variant="ghost" aria-label={`View user ${user.email}`} onClick={() => actor.send({ type: 'user.open', id: user.id })}>
                    View
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav aria-label="Pages of users" className="flex items-center justify-between border-t border-neutral-200 px-5 py-3 text-sm dark:border-neutral-800">
        <p>
          {first}–{first + view.users.length - 1} of {view.total} {view.total === 1 ? 'user' : 'users'}
        </p>
        <div className="flex gap-2">
          <Button disabled={!canPrevious} onClick={() => actor.send({ type: 'page.previous' })}>
            Previous page
          </Button>
          <Button disabled={!canNext} onClick={() => actor.send({ type: 'page.next' })}>
            Next page
          </Button>
        </div>
      </nav>
    </Card>
  )
}

function AddUserDialog({ actor, add }: { actor: AuthUsersActorRef; add: Loaded['add'] }) {
  const id = useId()
  const canSubmit = useSelector(actor, (s) => s.can({ type: 'add.submit' }))
  const canCancel = useSelector(actor, (s) => s.can({ type: 'add.cancel' }))
  const edit = (draft: Partial<AddDraft>) => actor.send({ type: 'add.edit', draft })
  function submit(event: FormEvent) {
    event.preventDefault()
    actor.send({ type: 'add.submit' })
  }
  const draft = add?.draft
  const invalid = draft && draft.email !== '' ? add.invalid : null
  return (
    <Modal open={add !== null} onClose={() => actor.send({ type: 'add.cancel' })} title="Add user">
      {add && draft ? (
        <form onSubmit={submit} className="space-y-4" aria-label="Add user">
          <fieldset className="flex gap-4 text-sm">
            <legend className="mb-2 text-sm font-medium">How</legend>
            <label className="flex items-center gap-2">
              <input type="radio" name={`${id}-mode`} className="accent-emerald-600" checked={draft.mode === 'create'} disabled={add.submitting} onChange={() => edit({ mode: 'create' })} />
              Create new user
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name={`${id}-mode`} className="accent-emerald-600" checked={draft.mode === 'invite'} disabled={add.submitting} onChange={() => edit({ mode: 'invite' })} />
              Send invitation
            </label>
          </fieldset>
          <Field id={`${id}-email`} label="Email address" error={invalid}>
            <input
              {...fieldAria(`${id}-email`, { error: invalid })}
              type="email"
              className={inputClass}
              value={draft.email}
              readOnly={add.submitting}
              autoComplete="off"
              onChange={(event) => edit({ email: event.target.value })}
            />
          </Field>
          {draft.mode === 'create' ? (
            <>
              <Field id={`${id}-password`} label="User password">
                <input
                  {...fieldAria(`${id}-password`, {})}
                  type="password"
                  className={inputClass}
                  value={draft.password}
                  readOnly={add.submitting}
                  autoComplete="new-password"
                  onChange={(event) => edit({ password: event.target.value })}
                />
              </Field>
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" className="h-4 w-4 accent-emerald-600" checked={draft.autoConfirm} disabled={add.submitting} onChange={(event) => edit({ autoConfirm: event.target.checked })} />
                Auto Confirm User?
              </label>
            </>
          ) : (
            <p className="text-sm text-neutral-600 dark:text-neutral-300">The user gets an e-mail with a link to accept the invitation and set a password.</p>
          )}
          {add.error ? <InlineError>{add.error}</InlineError> : null}
          <div className="flex justify-end gap-2">
            <Button disabled={!canCancel} onClick={() => actor.send({ type: 'add.cancel' })}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" disabled={!canSubmit}>
              {add.submitting ? (draft.mode === 'invite' ? 'Inviting…' : 'Creating…') : draft.mode === 'invite' ? 'Invite user' : 'Create user'}
            </Button>
          </div>
        </form>
      ) : null}
    </Modal>
  )
}

const BUSY: Record<string, string> = { magiclink: 'Sending magic link…', recovery: 'Sending password recovery…', ban: 'Banning…', unban: 'Unbanning…', remove: 'Removing…' }

function UserPanel({ actor, view }: { actor: AuthUsersActorRef; view: Loaded }) {
  const open = view.open
  const canAct = useSelector(actor, (s) => s.can({ type: 'user.act', action: 'magiclink' }))
  const canRemove = useSelector(actor, (s) => s.can({ type: 'remove.open' }))
  const canClose = useSelector(actor, (s) => s.can({ type: 'user.close' }))
  const canConfirm = useSelector(actor, (s) => s.can({ type: 'remove.confirm' }))
  const canCancel = useSelector(actor, (s) => s.can({ type: 'remove.cancel' }))
  const user: AuthUser | undefined = open?.user
  const banned = open?.banned ?? false
  return (
    <Modal open={open !== null} onClose={() => (canClose ? actor.send({ type: 'user.close' }) : undefined)} title="User" size="lg">
      {open && user ? (
        <div className="space-y-4">
          <DataList
            rows={[
              ['Email', user.email],
              ['User UID', <span className="font-mono text-xs">{user.id}</span>],
              ['Provider', providerLabel(user)],
              ['Created', whenLabel(user.created_at)],
              ['Confirmed', user.email_confirmed_at ? whenLabel(user.email_confirmed_at) : 'Not confirmed'],
              ['Invited', whenLabel(user.invited_at)],
              ['Last sign in', whenLabel(user.last_sign_in_at)],
              ['Banned until', banned ? whenLabel(user.banned_until) : 'Not banned'],
            ]}
          />
          <div>
            <h3 className="mb-1 text-sm font-medium">User metadata</h3>
            <pre aria-label="User metadata" className="overflow-x-auto rounded-md bg-neutral-100 p-3 text-xs text-neutral-900 dark:bg-neutral-800 dark:text-neutral-100">
              {JSON.stringify(user.user_metadata, null, 2)}
            </pre>
            <h3 className="mb-1 mt-3 text-sm font-medium">App metadata</h3>
            <pre aria-label="App metadata" className="overflow-x-auto rounded-md bg-neutral-100 p-3 text-xs text-neutral-900 dark:bg-neutral-800 dark:text-neutral-100">
              {JSON.stringify(user.app_metadata, null, 2)}
            </pre>
          </div>
          {view.notice ? <Notice>{view.notice}</Notice> : null}
          {open.busy ? <Loading label={BUSY[open.busy]} /> : null}
          {open.error && !open.confirmingRemove ? <InlineError>{open.error}</InlineError> : null}
          {view.canManage ? (
            open.confirmingRemove ? (
              <div role="group" aria-label="Remove user" className="space-y-3 rounded-md border border-red-300 p-4 dark:border-red-900">
                <p className="text-sm">
                  Remove <strong>{user.email}</strong>? They can no longer sign in, and this cannot be undone.
                </p>
                {open.error ? <InlineError>{open.error}</InlineError> : null}
                <div className="flex justify-end gap-2">
                  <Button disabled={!canCancel} onClick={() => actor.send({ type: 'remove.cancel' })}>
                    Cancel
                  </Button>
                  <Button variant="danger" disabled={!canConfirm} onClick={() => actor.send({ type: 'remove.confirm' })}>
                    {open.busy === 'remove' ? 'Removing…' : 'Remove user'}
                  </Button>
                </div>
              </div>
            ) : (
              <div className="flex flex-wrap gap-2">
                <Button disabled={!canAct} onClick={() => actor.send({ type: 'user.act', action: 'magiclink' })}>
                  Send magic link
                </Button>
                <Button disabled={!canAct} onClick={() => actor.send({ type: 'user.act', action: 'recovery' })}>
                  Send password recovery
                </Button>
                <Button disabled={!canAct} onClick={() => actor.send({ type: 'user.act', action: banned ? 'unban' : 'ban' })}>
                  {banned ? 'Unban user' : 'Ban user for 24 hours'}
                </Button>
                <Button variant="danger" disabled={!canRemove} onClick={() => actor.send({ type: 'remove.open' })}>
                  Remove user
                </Button>
              </div>
            )
          ) : null}
        </div>
      ) : null}
    </Modal>
  )
}
