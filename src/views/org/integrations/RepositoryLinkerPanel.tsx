import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react'
import { useSelector } from '@xstate/react'
import type { ReactNode } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectRepositoryRelinkView, type ProjectOption, type RepositoryOption, type repositoryRelinkMachine } from '../../../../machines/repositoryRelink.machine'
import { Icon } from '../../shell/Icon'
import { Button, ErrorPanel, Loading, cx, inputClass } from '../../shell/ui'

export type RepositoryRelinkActorRef = ActorRefFrom<typeof repositoryRelinkMachine>

export const PANEL_TITLE = 'Add GitHub repository'

/**
 * The 'Add GitHub repository' side panel: a Headless UI dialog at the window's right edge, open while the repository
 * relink machine is; every control sends that machine an event.
 */
export function RepositoryLinkerPanel({ actor }: { actor: RepositoryRelinkActorRef }) {
  const view = useSelector(actor, selectRepositoryRelinkView)
  const close = () => actor.send({ type: 'panel.close' })
  return (
    <Dialog open={view.phase !== 'closed'} onClose={close} className="relative z-50">
      <div aria-hidden className="fixed inset-0 bg-neutral-950/40" />
      <div className="fixed inset-y-0 right-0 flex w-full max-w-xl">
        <DialogPanel className="flex h-full w-full flex-col border-l border-neutral-200 bg-white shadow-2xl dark:border-neutral-800 dark:bg-neutral-900">
          <div className="flex items-center justify-between border-b border-neutral-200 px-5 py-3 dark:border-neutral-800">
            <DialogTitle className="font-semibold">{PANEL_TITLE}</DialogTitle>
            <button
              type="button"
              aria-label="Close"
              disabled={view.phase === 'choosing' && view.connecting}
              onClick={close}
              className="rounded p-1 text-neutral-500 hover:bg-neutral-100 disabled:opacity-50 dark:hover:bg-neutral-800"
            >
              <Icon name="close" className="h-4 w-4" />
            </button>
          </div>
          <div className="flex-1 overflow-y-auto p-5">
            {view.phase === 'loading' ? <Loading label="Loading GitHub repositories…" /> : null}
            {view.phase === 'failed' ? (
              <ErrorPanel title="Failed to retrieve repositories" message={view.error} onRetry={() => actor.send({ type: 'linker.retry' })} />
            ) : null}
            {view.phase === 'install' ? (
              <div className="space-y-4 text-sm">
                <p>Install GitHub in this organization and authorize it for your account to link its repositories to projects.</p>
                {view.error ? (
                  <p role="alert" className="text-red-700 dark:text-red-300">
                    {view.error}
                  </p>
                ) : null}
                {view.installing ? (
                  <div className="space-y-3">
                    <p role="status">Waiting for the GitHub install window…</p>
                    <Button onClick={() => actor.send({ type: 'install.cancel' })}>Cancel</Button>
                  </div>
                ) : (
                  <Button variant="primary" onClick={() => actor.send({ type: 'install.start' })}>
                    Install GitHub
                  </Button>
                )}
              </div>
            ) : null}
            {view.phase === 'choosing' ? <Pickers actor={actor} view={view} /> : null}
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  )
}

type ChoosingView = Extract<ReturnType<typeof selectRepositoryRelinkView>, { phase: 'choosing' }>

function Pickers({ actor, view }: { actor: RepositoryRelinkActorRef; view: ChoosingView }) {
  return (
    <div className="space-y-6">
      <Picker
        legend="Supabase project"
        searchLabel="Search projects"
        search={view.projectSearch}
        onSearch={(text) => actor.send({ type: 'project.search', text })}
        disabled={view.connecting}
        empty={
          view.noProjects ? (
            <div className="px-3 py-4 text-center text-sm">
              <p className="font-medium">No Supabase Projects found</p>
              <p className="text-neutral-500">You will need to create a Supabase Project to link to GitHub. You can skip this and create a Supabase Project later.</p>
            </div>
          ) : view.projects.length === 0 ? (
            <NoResults />
          ) : null
        }
      >
        {view.projects.map((project: ProjectOption) => (
          <Option
            key={project.ref}
            name="project"
            label={project.name}
            note={project.connectedTo ? `Linked to ${project.connectedTo}` : null}
            checked={view.projectRef === project.ref}
            disabled={view.connecting}
            onSelect={() => actor.send({ type: 'project.select', ref: project.ref })}
          />
        ))}
      </Picker>
      <Picker
        legend="GitHub repository"
        searchLabel="Search repositories"
        search={view.repositorySearch}
        onSearch={(text) => actor.send({ type: 'repository.search', text })}
        disabled={view.connecting}
        empty={
          view.noRepositories ? (
            <p className="px-3 py-4 text-center text-sm text-neutral-500">No repositories in this organization's GitHub installation yet.</p>
          ) : view.repositories.length === 0 ? (
            <NoResults />
          ) : null
        }
      >
        {view.repositories.map((repository: RepositoryOption) => (
          <Option
            key={repository.id}
            name="repository"
            label={repository.name}
            note={repository.connectedTo ? `Linked to ${repository.connectedTo}` : null}
            checked={view.repositoryId === repository.id}
            disabled={view.connecting}
            onSelect={() => actor.send({ type: 'repository.select', id: repository.id })}
          />
        ))}
      </Picker>
      {view.conflict ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {view.conflict}
        </p>
      ) : null}
      {view.error && view.error !== view.conflict ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {view.error}
        </p>
      ) : null}
      {view.replaces && !view.conflict ? (
        <p className="text-sm text-neutral-500">The project is linked to {view.replaces}: connecting replaces that link.</p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button disabled={view.connecting} onClick={() => actor.send({ type: 'panel.close' })}>
          Cancel
        </Button>
        <Button variant="primary" disabled={!view.canConnect} aria-busy={view.connecting} onClick={() => actor.send({ type: 'connect' })}>
          {view.connecting ? 'Connecting…' : 'Connect'}
        </Button>
      </div>
    </div>
  )
}

function NoResults() {
  return <p className="px-3 py-4 text-center text-sm text-neutral-500">No results found.</p>
}

function Picker(props: {
  legend: string
  searchLabel: string
  search: string
  onSearch: (text: string) => void
  disabled: boolean
  empty: ReactNode
  children: ReactNode
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="mb-2 text-sm font-medium">{props.legend}</legend>
      <input
        type="search"
        aria-label={props.searchLabel}
        placeholder={`${props.searchLabel}…`}
        value={props.search}
        disabled={props.disabled}
        onChange={(event) => props.onSearch(event.target.value)}
        className={inputClass}
      />
      {/* Spec 2: a picker's list is about 170 px high at most. */}
      <div className="max-h-[170px] overflow-y-auto rounded-md border border-neutral-200 dark:border-neutral-800">{props.empty ?? props.children}</div>
    </fieldset>
  )
}

function Option(props: { name: string; label: string; note: string | null; checked: boolean; disabled: boolean; onSelect: () => void }) {
  return (
    <label
      className={cx(
        'flex cursor-pointer items-center gap-3 px-3 py-2 text-sm hover:bg-neutral-50 dark:hover:bg-neutral-800',
        props.checked && 'bg-emerald-50 dark:bg-emerald-950/40',
      )}
    >
      <input type="radio" name={props.name} checked={props.checked} disabled={props.disabled} onChange={props.onSelect} className="accent-emerald-600" />
      <span className="flex-1 font-medium">{props.label}</span>
      {props.note ? <span className="text-xs text-neutral-500">{props.note}</span> : null}
    </label>
  )
}
