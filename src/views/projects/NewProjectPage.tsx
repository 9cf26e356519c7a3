import { useSelector } from '@xstate/react'
import type { FormEvent } from 'react'
import { Redirect } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import { REGIONS, selectCanCreate, selectNewProjectView, type newProjectMachine, type RegionCode } from '../../../machines/newProject.machine'
import { selectOrganizationView, type organizationMachine } from '../../../machines/organization.machine'
import { Button, Card, ErrorPanel, PageHeading, TextLink, inputClass } from '../shell/ui'
import { useDocumentTitle } from '../shell/useDocumentTitle'
import { href } from '../../href'

export type NewProjectActorRef = ActorRefFrom<typeof newProjectMachine>
type OrganizationActorRef = ActorRefFrom<typeof organizationMachine>

/** /new/{slug}: the organization it goes in, and the form. */
export function NewProjectPage({ organization, newProject }: { organization: OrganizationActorRef; newProject: NewProjectActorRef }) {
  useDocumentTitle('Create a new project')
  const org = useSelector(organization, selectOrganizationView)
  return (
    <div className="mx-auto w-full max-w-2xl px-6 py-8">
      <PageHeading
        title="Create a new project"
        description={
          org.phase === 'loaded' ? (
            <>
              In <strong>{org.data.organization.name}</strong>, on the <strong>{org.data.subscription.plan.name}</strong> plan.
            </>
          ) : undefined
        }
      />
      {org.phase === 'failed' ? (
        <ErrorPanel title="Failed to load organization" message={org.error} onRetry={() => organization.send({ type: 'organization.retry' })} />
      ) : (
        <NewProjectForm newProject={newProject} />
      )}
    </div>
  )
}

/** Name and region, then Create; once created, the new project's page (its building screen) takes over. */
export function NewProjectForm({ newProject }: { newProject: NewProjectActorRef }) {
  const view = useSelector(newProject, selectNewProjectView)
  const canCreate = useSelector(newProject, selectCanCreate)
  if (view.phase === 'created') return <Redirect to={href.project(view.ref)} />

  function submit(event: FormEvent) {
    event.preventDefault()
    newProject.send({ type: 'project.create' })
  }

  return (
    <Card className="p-6">
      <form onSubmit={submit} className="space-y-5" aria-label="New project">
        <div className="space-y-1.5">
          <label htmlFor="project-name" className="text-sm font-medium">
            Project name
          </label>
          <input
            id="project-name"
            className={inputClass}
            value={view.name}
            disabled={view.creating}
            maxLength={256}
            autoComplete="off"
            onChange={(event) => newProject.send({ type: 'project.name', name: event.target.value })}
          />
        </div>
        <div className="space-y-1.5">
          <label htmlFor="project-region" className="text-sm font-medium">
            Region
          </label>
          <select
            id="project-region"
            className={inputClass}
            value={view.region}
            disabled={view.creating}
            onChange={(event) => newProject.send({ type: 'project.region', region: event.target.value as RegionCode })}
          >
            {REGIONS.map((region) => (
              <option key={region} value={region}>
                {region}
              </option>
            ))}
          </select>
          <p className="text-xs text-neutral-500 dark:text-neutral-400">Where the project's database runs. It cannot be changed later.</p>
        </div>
        {view.error ? (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {view.error}
          </p>
        ) : null}
        <div className="flex items-center justify-between gap-3">
          <TextLink href={href.projects()}>Cancel</TextLink>
          <Button type="submit" variant="primary" disabled={!canCreate}>
            {view.creating ? 'Creating project…' : 'Create new project'}
          </Button>
        </div>
      </form>
    </Card>
  )
}
