import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { selectProjectListView } from '../../../machines/projectList.machine'
import type { Project } from '../../contracts/projects'
import type { ProjectListActorRef } from '../shell/contexts'
import { Button, ErrorPanel, Loading, PageHeading, inputClass } from '../shell/ui'
import { useDocumentTitle } from '../shell/useDocumentTitle'
import { ProjectGrid } from './ProjectGrid'
import { StatusBadge } from './StatusBadge'
import { href } from '../../href'

export function ProjectsPage({ projectList }: { projectList: ProjectListActorRef }) {
  useDocumentTitle('Projects')
  const view = useSelector(projectList, selectProjectListView)
  const canRefresh = useSelector(projectList, (snapshot) => snapshot.can({ type: 'projects.refresh' }))

  return (
    <div className="mx-auto w-full max-w-6xl px-6 py-8">
      <PageHeading title="Projects" description="Every project of the organizations you belong to." />
      {view.phase === 'loading' ? <Loading label="Loading projects…" /> : null}
      {view.phase === 'failed' ? (
        <ErrorPanel title="Failed to load projects" message={view.error} onRetry={() => projectList.send({ type: 'projects.retry' })} />
      ) : null}
      {view.phase === 'loaded' ? (
        <>
          <div className="mb-8 flex items-center gap-3">
            <label htmlFor="project-search" className="sr-only">
              Search for a project
            </label>
            <input
              id="project-search"
              type="search"
              placeholder="Search for a project"
              className={`${inputClass} max-w-xs`}
              value={view.query}
              onChange={(event) => projectList.send({ type: 'projects.search', query: event.target.value })}
            />
            <Button disabled={!canRefresh} onClick={() => projectList.send({ type: 'projects.refresh' })}>
              {view.refreshing ? 'Refreshing…' : 'Refresh'}
            </Button>
          </div>
          {view.noResults ? (
            <p className="rounded-lg border border-dashed border-neutral-300 p-8 text-center text-sm text-neutral-500 dark:border-neutral-700">
              No results found.
            </p>
          ) : null}
          {view.groups.length === 0 && !view.noResults ? (
            <p className="rounded-lg border border-dashed border-neutral-300 p-8 text-center text-sm text-neutral-500 dark:border-neutral-700">
              You are not a member of any organization yet.
            </p>
          ) : null}
          <div className="space-y-10">
            {view.groups.map(({ organization, projects }) => (
              <section key={organization.id} aria-labelledby={`org-${organization.slug}`}>
                <div className="mb-4 flex items-center justify-between gap-4">
                  <h2 id={`org-${organization.slug}`} className="text-lg font-semibold">
                    <Link href={href.org(organization.slug, 'general')} className="hover:underline">
                      {organization.name}
                    </Link>
                  </h2>
                  <div className="flex items-center gap-3">
                  <Link href={href.org(organization.slug, 'team')} className="text-sm font-medium text-neutral-600 hover:underline dark:text-neutral-300">
                    Team<span className="sr-only"> of {organization.name}</span>
                  </Link>
                  <Link
                    href={href.newProject(organization.slug)}
                    className="rounded-md bg-primary px-3 py-1.5 text-sm font-medium text-white shadow-xs hover:bg-primary-hover"
                  >
                    New project
                  </Link>
                  </div>
                </div>
                {projects.length === 0 ? (
                  <p className="rounded-lg border border-dashed border-neutral-300 p-6 text-sm text-neutral-500 dark:border-neutral-700">
                    No projects found in this organization
                  </p>
                ) : (
                  <ProjectGrid projects={projects} renderCard={renderCard} />
                )}
              </section>
            ))}
          </div>
        </>
      ) : null}
    </div>
  )
}

const renderCard = (project: Project) => <ProjectCard project={project} />

/**
 * The whole card is the link, and its accessible name is everything it shows, the project's name first (WCAG 2.5.3:
 * the name contains the visible label) — so no aria-label; the spaces keep the parts apart in that name.
 */
function ProjectCard({ project }: { project: Project }) {
  return (
    <Link
      href={href.project(project.ref)}
      className="group block rounded-lg border border-neutral-200 bg-white p-4 shadow-xs transition hover:border-neutral-300 hover:shadow-sm dark:border-neutral-800 dark:bg-neutral-900 dark:hover:border-neutral-700"
    >
      <div className="flex items-start justify-between gap-3">
        <h3 className="truncate font-medium text-neutral-900 group-hover:text-emerald-700 dark:text-neutral-100 dark:group-hover:text-emerald-400">
          {project.name}
        </h3>{' '}
        <StatusBadge status={project.status} />
      </div>{' '}
      <p className="mt-3 text-xs text-neutral-500 dark:text-neutral-400">{project.region}</p>{' '}
      <p className="mt-1 font-mono text-xs text-neutral-500 dark:text-neutral-400">{project.ref}</p>
    </Link>
  )
}
