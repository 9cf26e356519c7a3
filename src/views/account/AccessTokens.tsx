import { useSelector } from '@xstate/react'
import type { FormEvent } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectAccessTokensView, type TokenDraft, type accessTokensMachine } from '../../../machines/accessTokens.machine'
import { Field } from '../shell/Field'
import { Modal } from '../shell/Modal'
import { Button, Card, ErrorPanel, Loading, inputClass } from '../shell/ui'

export type AccessTokensActorRef = ActorRefFrom<typeof accessTokensMachine>

const formatDate = (iso: string | null) => (iso ? new Date(iso).toISOString().slice(0, 10) : 'Never')

/** The expiry choices of the form ('' = the platform's default, ACCESS_TOKEN_DEFAULT_EXPIRY_DAYS); the server accepts 1 to 365 days. */
const EXPIRY_CHOICES = [
  { value: '', label: 'Platform default' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
] as const

export function AccessTokens({ tokens }: { tokens: AccessTokensActorRef }) {
  const view = useSelector(tokens, selectAccessTokensView)
  const canCreate = useSelector(tokens, (snapshot) => snapshot.can({ type: 'token.create' }))
  const canRevoke = useSelector(tokens, (snapshot) => snapshot.can({ type: 'token.revoke', id: 0 }))
  const canConfirm = useSelector(tokens, (snapshot) => snapshot.can({ type: 'revoke.confirm' }))

  if (view.phase === 'loading') return <Loading label="Loading access tokens…" />
  if (view.phase === 'failed') {
    return <ErrorPanel title="Failed to load access tokens" message={view.error} onRetry={() => tokens.send({ type: 'tokens.retry' })} />
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    tokens.send({ type: 'token.create' })
  }
  const edit = (draft: Partial<TokenDraft>) => tokens.send({ type: 'token.edit', draft })

  return (
    <div className="space-y-4">
      <form onSubmit={submit} className="flex items-end gap-3">
        <Field id="token-name" label="Token name" className="flex-1">
          <input id="token-name" className={inputClass} value={view.draft.name} onChange={(event) => edit({ name: event.target.value })} placeholder="e.g. CI deploys" />
        </Field>
        <Field id="token-expiry" label="Expires">
          <select
            id="token-expiry"
            className={inputClass}
            value={view.draft.expiry}
            onChange={(event) => {
              const choice = EXPIRY_CHOICES.find((entry) => entry.value === event.target.value)
              if (choice) edit({ expiry: choice.value })
            }}
          >
            {EXPIRY_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </Field>
        <Button type="submit" variant="primary" disabled={!canCreate}>
          {view.creating ? 'Generating…' : 'Generate new token'}
        </Button>
      </form>
      {view.error ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {view.error}
        </p>
      ) : null}
      {view.created ? (
        <div role="region" aria-label="New token" className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-800 dark:bg-amber-950/40">
          <p className="text-sm font-medium text-amber-900 dark:text-amber-200">
            Copy this token now. It will not be shown again.
          </p>
          <div className="flex items-center gap-2">
            <code className="flex-1 truncate rounded bg-white px-2 py-1.5 font-mono text-sm dark:bg-neutral-950">{view.created.token}</code>
            <Button onClick={() => tokens.send({ type: 'token.copy' })} disabled={view.copied}>
              {view.copied ? 'Copied' : 'Copy'}
            </Button>
            <Button variant="ghost" onClick={() => tokens.send({ type: 'token.dismiss' })}>
              Done
            </Button>
          </div>
        </div>
      ) : null}
      <Card>
        {view.tokens.length === 0 ? (
          <p className="p-5 text-sm text-neutral-500">No access tokens yet.</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="border-b border-neutral-200 text-xs text-neutral-500 dark:border-neutral-800">
              <tr>
                <th className="px-5 py-2 font-medium">Name</th>
                <th className="px-5 py-2 font-medium">Token</th>
                <th className="px-5 py-2 font-medium">Last used</th>
                <th className="px-5 py-2 font-medium">Created</th>
                <th className="px-5 py-2 font-medium">Expires</th>
                <th className="px-5 py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-neutral-200 dark:divide-neutral-800">
              {view.tokens.map((token) => (
                <tr key={token.id}>
                  <td className="px-5 py-3 font-medium">{token.name}</td>
                  <td className="px-5 py-3 font-mono text-xs text-neutral-500">{token.token_alias}</td>
                  <td className="px-5 py-3 text-neutral-500">{formatDate(token.last_used_at)}</td>
                  <td className="px-5 py-3 text-neutral-500">{formatDate(token.created_at)}</td>
                  <td className="px-5 py-3 text-neutral-500">{formatDate(token.expires_at)}</td>
                  <td className="px-5 py-3 text-right">
                    <Button
                      variant="ghost"
                      aria-label={`Revoke ${token.name}`}
                      disabled={!canRevoke}
                      onClick={() => tokens.send({ type: 'token.revoke', id: token.id })}
                    >
                      Revoke
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <Modal open={view.revoking !== null} onClose={() => tokens.send({ type: 'revoke.cancel' })} title="Revoke access token">
        <p className="text-sm">
          Revoke <strong>{view.revoking?.token.name}</strong>? Anything using this token will stop working. This cannot be undone.
        </p>
        <div className="mt-5 flex justify-end gap-2">
          <Button onClick={() => tokens.send({ type: 'revoke.cancel' })} disabled={view.revoking?.inFlight}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => tokens.send({ type: 'revoke.confirm' })} disabled={!canConfirm}>
            {view.revoking?.inFlight ? 'Revoking…' : 'Revoke token'}
          </Button>
        </div>
      </Modal>
    </div>
  )
}
