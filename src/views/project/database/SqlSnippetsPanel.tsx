/** The SQL Editor's side panel: saved queries (favourites first) and the person's last runs, each opened in the editor. */
import { useSelector } from '@xstate/react'
import type { FormEvent } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectSqlSnippetsView, type sqlSnippetsMachine } from '../../../../machines/sqlSnippets.machine'
import { Modal } from '../../shell/Modal'
import { Button, ErrorPanel, InlineError, Loading, inputClass } from '../../shell/ui'

export type SqlSnippetsActorRef = ActorRefFrom<typeof sqlSnippetsMachine>

const field = (form: HTMLFormElement, name: string) => String(new FormData(form).get(name) ?? '')

export function SqlSnippetsPanel({ actor, query, onOpen }: { actor: SqlSnippetsActorRef; query: string; onOpen: (sql: string) => void }) {
  const view = useSelector(actor, selectSqlSnippetsView)
  if (view.phase === 'loading') return <Loading label="Loading saved queries…" />
  if (view.phase === 'failed') return <ErrorPanel title="Saved queries could not be loaded" message={view.error ?? ''} onRetry={() => actor.send({ type: 'retry' })} />
  const busy = view.phase !== 'idle' && view.phase !== 'refreshing'

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    actor.send({ type: 'snippet.save', draft: { name: field(form, 'name'), sql: query, visibility: field(form, 'visibility') === 'project' ? 'project' : 'user' } })
  }
  function rename(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    actor.send({ type: 'snippet.rename', name: field(event.currentTarget, 'name') })
  }

  return (
    <div className="space-y-6">
      <section aria-labelledby="saved-queries" className="space-y-2">
        <div className="flex items-center justify-between gap-2">
          <h2 id="saved-queries" className="text-sm font-semibold">
            Saved queries
          </h2>
          <Button onClick={() => actor.send({ type: 'save.start' })} disabled={busy || query.trim() === ''}>
            Save query
          </Button>
        </div>
        {view.error ? <InlineError>{view.error}</InlineError> : null}
        {view.phase === 'saving' || view.phase === 'updating' || view.phase === 'deleting' ? <Loading label="Saving…" /> : null}
        {view.snippets.length === 0 ? (
          <p className="text-sm text-neutral-600 dark:text-neutral-300">No saved queries yet.</p>
        ) : (
          <ul aria-label="Saved queries" className="space-y-1">
            {view.snippets.map((snippet) => (
              <li key={snippet.id} className="flex items-center gap-1 rounded-md px-1 hover:bg-neutral-100 dark:hover:bg-neutral-800">
                <button
                  type="button"
                  aria-pressed={snippet.favorite}
                  aria-label={`Favourite ${snippet.name}`}
                  disabled={busy}
                  onClick={() => actor.send({ type: 'snippet.favourite', id: snippet.id, favorite: !snippet.favorite })}
                  className={snippet.favorite ? 'px-1 text-amber-700' : 'px-1 text-neutral-600 dark:text-neutral-400'}
                >
                  {snippet.favorite ? '★' : '☆'}
                </button>
                <button type="button" onClick={() => onOpen(snippet.content.sql)} className="min-w-0 flex-1 truncate py-1 text-left text-sm" title={`Open ${snippet.name}`}>
                  {snippet.name}
                  {view.authored.has(snippet.id) ? (
                    snippet.visibility === 'project' ? <span className="ml-2 text-xs text-neutral-600 dark:text-neutral-400">shared</span> : null
                  ) : (
                    <span className="ml-2 text-xs text-neutral-600 dark:text-neutral-400">by {snippet.owner.username}</span>
                  )}
                </button>
                {view.authored.has(snippet.id) ? (
                  <>
                    <button
                      type="button"
                      disabled={busy}
                      aria-label={snippet.visibility === 'project' ? `Make ${snippet.name} private` : `Share ${snippet.name} with the project`}
                      onClick={() => actor.send({ type: 'snippet.share', id: snippet.id, visibility: snippet.visibility === 'project' ? 'user' : 'project' })}
                      className="px-1 text-xs text-neutral-700 dark:text-neutral-300"
                    >
                      {snippet.visibility === 'project' ? 'Make private' : 'Share'}
                    </button>
                    <button type="button" disabled={busy} aria-label={`Rename ${snippet.name}`} onClick={() => actor.send({ type: 'rename.start', id: snippet.id })} className="px-1 text-xs text-neutral-700 dark:text-neutral-300">
                      Rename
                    </button>
                    <button type="button" disabled={busy} aria-label={`Delete ${snippet.name}`} onClick={() => actor.send({ type: 'delete.start', id: snippet.id })} className="px-1 text-xs text-red-700 dark:text-red-400">
                      Delete
                    </button>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="query-history" className="space-y-2">
        <h2 id="query-history" className="text-sm font-semibold">
          History
        </h2>
        {view.history.length === 0 ? (
          <p className="text-sm text-neutral-600 dark:text-neutral-300">No queries run yet.</p>
        ) : (
          <ol aria-label="Query history" className="max-h-80 space-y-1 overflow-auto">
            {view.history.map((run) => (
              <li key={run.id}>
                <button type="button" onClick={() => onOpen(run.query)} className="w-full truncate rounded px-1 py-0.5 text-left font-mono text-xs hover:bg-neutral-100 dark:hover:bg-neutral-800" title={run.query}>
                  <span className={run.error === null ? 'text-emerald-800 dark:text-emerald-400' : 'text-red-700 dark:text-red-400'}>{run.error === null ? '✓' : '✗'}</span> {run.query}
                </button>
              </li>
            ))}
          </ol>
        )}
      </section>

      <Modal open={view.phase === 'naming'} onClose={() => actor.send({ type: 'save.cancel' })} title="Save query">
        <form onSubmit={save} className="space-y-4">
          <label className="block space-y-1 text-sm">
            <span className="font-medium">Name</span>
            <input name="name" required maxLength={256} autoFocus className={inputClass} />
          </label>
          <label className="block space-y-1 text-sm">
            <span className="font-medium">Who sees it</span>
            <select name="visibility" defaultValue="user" className={inputClass}>
              <option value="user">Only me</option>
              <option value="project">Everyone in the project</option>
            </select>
          </label>
          <div className="flex justify-end gap-2">
            <Button onClick={() => actor.send({ type: 'save.cancel' })}>Cancel</Button>
            <Button type="submit" variant="primary">
              Save
            </Button>
          </div>
        </form>
      </Modal>
      <Modal open={view.phase === 'renaming'} onClose={() => actor.send({ type: 'rename.cancel' })} title="Rename query">
        <form onSubmit={rename} className="space-y-4">
          <label className="block space-y-1 text-sm">
            <span className="font-medium">Name</span>
            <input name="name" required maxLength={256} defaultValue={view.target?.name ?? ''} autoFocus className={inputClass} />
          </label>
          <div className="flex justify-end gap-2">
            <Button onClick={() => actor.send({ type: 'rename.cancel' })}>Cancel</Button>
            <Button type="submit" variant="primary">
              Rename
            </Button>
          </div>
        </form>
      </Modal>
      <Modal open={view.phase === 'confirmingDelete'} onClose={() => actor.send({ type: 'delete.cancel' })} title="Delete query">
        <p className="text-sm">Delete “{view.target?.name}”? This cannot be undone.</p>
        <div className="mt-4 flex justify-end gap-2">
          <Button onClick={() => actor.send({ type: 'delete.cancel' })}>Cancel</Button>
          <Button variant="danger" onClick={() => actor.send({ type: 'delete.confirm' })}>
            Delete
          </Button>
        </div>
      </Modal>
    </div>
  )
}
