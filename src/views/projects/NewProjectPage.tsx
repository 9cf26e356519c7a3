import { useSelector } from '@xstate/react'
import type { FormEvent } from 'react'
import { Redirect } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import { REGIONS, selectCanCreate, selectNewProjectView, type newProjectMachine, type RegionCode } from '../../../machines/newProject.machine'
import { STRONG_PASSWORD_HINT } from '../../../machines/dbPassword'
import { selectOrganizationView, type organizationMachine } from '../../../machines/organization.machine'
import { Button, Card, ErrorPanel, PageHeading, TextLink, inputClass } from '../shell/ui'
import { Field, fieldAria } from '../shell/Field'
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

/** Name, database password and region, then Create; once created, the new project's page (its building screen) takes over. */
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
        <Field id="project-name" label="Project name">
          <input
            id="project-name"
            className={inputClass}
            value={view.name}
            disabled={view.creating}
            maxLength={256}
            autoComplete="off"
            onChange={(event) => newProject.send({ type: 'project.name', name: event.target.value })}
          />
        </Field>
        <Field id="project-db-password" label="Database password" hint={view.passwordProblem ?? STRONG_PASSWORD_HINT}>
          <input
            {...fieldAria('project-db-password', { hint: true })}
            type="password"
            className={inputClass}
            value={view.password}
            disabled={view.creating}
            autoComplete="new-password"
            onChange={(event) => newProject.send({ type: 'project.password', password: event.target.value })}
          />
        </Field>
        <Field id="project-region" label="Region" hint="Where the project's database runs. It cannot be changed later.">
          <select
            {...fieldAria('project-region', { hint: true })}
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
        </Field>
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
