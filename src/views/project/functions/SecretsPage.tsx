/** /project/{ref}/functions/secrets: Edge Function Secrets — names and digests, several added at once, one deleted. */
import { useSelector } from '@xstate/react'
import type { FormEvent } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectFunctionSecretsView, type functionSecretsMachine } from '../../../../machines/functionSecrets.machine'
import { useAppLogic } from '../../shell/logic'
import { Button, Card, ErrorPanel, InlineError, Loading, PageHeading, inputClass } from '../../shell/ui'
import { PAGE_CLASS, ProjectMachinePage } from '../ProjectMachinePage'
import { formatTime } from './FunctionDetail'

export type FunctionSecretsActorRef = ActorRefFrom<typeof functionSecretsMachine>

const HEADING = {
  title: 'Edge Function Secrets',
  description: "Environment variables of the project's functions. A value is never shown again: only its SHA-256 digest.",
}

export function SecretsPage() {
  const logic = useAppLogic()
  return (
    <ProjectMachinePage
      machine={logic.functionSecrets}
      heading={HEADING}
      loadingLabel="Loading secrets…"
      input={(ref) => ({ ref })}
      render={(actor) => <FunctionSecrets actor={actor} />}
    />
  )
}

export function FunctionSecrets({ actor }: { actor: FunctionSecretsActorRef }) {
  const view = useSelector(actor, selectFunctionSecretsView)
  return (
    <div className={PAGE_CLASS}>
      <PageHeading {...HEADING} />
      {view.phase === 'loading' ? <Loading label="Loading secrets…" /> : null}
      {view.phase === 'failed' ? <ErrorPanel title="Failed to load secrets" message={view.error} onRetry={() => actor.send({ type: 'secrets.retry' })} /> : null}
      {view.phase === 'loaded' ? (
        <div className="space-y-6">
          <Card>
            <form
              aria-label="Add secrets"
              className="space-y-3 p-5"
              onSubmit={(e: FormEvent) => {
                e.preventDefault()
                actor.send({ type: 'secrets.save' })
              }}
            >
              <h2 className="font-semibold">Add or replace secrets</h2>
              {view.drafts.map((row, index) => (
                <div key={index} className="space-y-1">
                  <div className="flex flex-wrap gap-2">
                    <input
                      aria-label={`Name of secret ${index + 1}`}
                      aria-invalid={view.problems[index] ? true : undefined}
                      placeholder="NAME"
                      className={`${inputClass} max-w-xs font-mono`}
                      value={row.name}
                      disabled={view.saving}
                      onChange={(e) => actor.send({ type: 'draft.change', index, name: e.target.value })}
                    />
                    <input
                      aria-label={`Value of secret ${index + 1}`}
                      type="password"
                      autoComplete="off"
                      className={`${inputClass} max-w-md font-mono`}
                      value={row.value}
                      disabled={view.saving}
                      onChange={(e) => actor.send({ type: 'draft.change', index, value: e.target.value })}
                    />
                    <Button aria-label={`Remove row ${index + 1}`} disabled={view.saving} onClick={() => actor.send({ type: 'draft.remove', index })}>
                      Remove
                    </Button>
                  </div>
                  {view.problems[index] ? <p className="text-xs text-red-700 dark:text-red-300">{view.problems[index]}</p> : null}
                </div>
              ))}
              <div className="flex gap-2">
                <Button disabled={view.saving} onClick={() => actor.send({ type: 'draft.add' })}>Add another</Button>
                <Button type="submit" variant="primary" disabled={!view.canSave}>
                  {view.saving ? 'Saving…' : 'Save secrets'}
                </Button>
              </div>
              {view.saveError ? <InlineError>{view.saveError}</InlineError> : null}
            </form>
          </Card>
          <Card>
            {view.secrets.length === 0 ? (
              <p className="p-5 text-sm text-neutral-600 dark:text-neutral-300">No secrets yet.</p>
            ) : (
              <table aria-label="Secrets" className="min-w-full text-sm">
                <thead className="text-left text-xs text-neutral-600 dark:text-neutral-300">
                  <tr>
                    <th scope="col" className="px-5 py-2 font-medium">Name</th>
                    <th scope="col" className="px-3 py-2 font-medium">Digest (SHA-256)</th>
                    <th scope="col" className="px-3 py-2 font-medium">Updated at</th>
                    <th scope="col" className="px-5 py-2 font-medium"><span className="sr-only">Actions</span></th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-neutral-100 dark:divide-neutral-800">
                  {view.secrets.map((secret) => (
                    <tr key={secret.name}>
                      <th scope="row" className="px-5 py-2 text-left font-mono text-xs font-medium">{secret.name}</th>
                      <td className="px-3 py-2 font-mono text-xs break-all">{secret.value}</td>
                      <td className="px-3 py-2 text-xs whitespace-nowrap">{secret.updated_at ? formatTime(new Date(secret.updated_at).getTime()) : ''}</td>
                      <td className="px-5 py-2 text-right">
                        <Button variant="ghost" disabled={view.remove !== null || view.saving} onClick={() => actor.send({ type: 'secret.delete', name: secret.name })}>
                          {`Delete ${secret.name}`}
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Card>
          {view.remove ? (
            <div role="alertdialog" aria-labelledby="delete-secret-title" className="space-y-3 rounded-lg border border-red-300 bg-red-50 p-5 dark:border-red-900 dark:bg-red-950/40">
              <h2 id="delete-secret-title" className="font-semibold text-red-800 dark:text-red-300">{`Delete the secret ${view.remove.name}?`}</h2>
              <p className="text-sm text-red-800 dark:text-red-300">Functions that read it lose it when their workers next start.</p>
              {view.remove.error ? <InlineError>{view.remove.error}</InlineError> : null}
              <div className="flex gap-2">
                <Button onClick={() => actor.send({ type: 'delete.cancel' })} disabled={view.remove.deleting}>Cancel</Button>
                <Button variant="danger" onClick={() => actor.send({ type: 'delete.confirm' })} disabled={view.remove.deleting}>
                  {view.remove.deleting ? 'Deleting…' : 'Delete secret'}
                </Button>
              </div>
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  )
}
