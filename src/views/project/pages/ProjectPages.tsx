import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { projectLink, selectProject } from '../../../../machines/projectStatus.machine'
import type { Project } from '../../../contracts/projects'
import { StatusBadge } from '../../projects/StatusBadge'
import { useBuildFlags } from '../../shell/contexts'
import { Card, DataList, PageHeading } from '../../shell/ui'
import { useProjectActor } from '../projectActor'
import { sqlSection } from '../../routes/projectRoutes'

function ProjectFacts({ project }: { project: Project }) {
  return (
    <Card>
      <DataList
        rows={[
          ['Name', project.name],
          ['Reference', <span className="font-mono">{project.ref}</span>],
          ['Status', <StatusBadge status={project.status} />],
          ['Region', project.region],
          ['Postgres version', project.db_version],
          ['REST URL', project.restUrl === '' ? 'Not available yet' : <span className="font-mono">{project.restUrl}</span>],
        ]}
      />
    </Card>
  )
}

/** A tool page until its issue fills it: its title and the project's data, never a blank page. */
export function ToolPage({ title, note }: { title: string; note?: string }) {
  const project = useSelector(useProjectActor(), selectProject)
  return (
    <div className="mx-auto w-full max-w-4xl px-6 py-8">
      <PageHeading title={title} description={note ?? 'This page is being built; the project it belongs to is below.'} />
      {project ? <ProjectFacts project={project} /> : null}
    </div>
  )
}

export function ProjectHome() {
  const flags = useBuildFlags()
  const project = useSelector(useProjectActor(), selectProject)
  if (!project) return null
  const shortcuts = [
    { label: 'Table Editor', section: 'editor' },
    { label: 'SQL Editor', section: sqlSection(flags) },
    { label: 'Database', section: 'database/tables' },
    { label: 'API Docs', section: 'api' },
  ]
  return (
    <div className="mx-auto w-full max-w-4xl px-6 py-8">
      <PageHeading title={project.name} description={<>Project <span className="font-mono">{project.ref}</span></>} />
      <ProjectFacts project={project} />
      <h2 className="mt-8 mb-3 text-sm font-semibold text-neutral-500">Get started</h2>
      <ul className="grid gap-3 sm:grid-cols-2">
        {shortcuts.map((shortcut) => (
          <li key={shortcut.label}>
            <Link
              href={projectLink(project, project.ref, shortcut.section)}
              className="block rounded-lg border border-neutral-200 bg-white px-4 py-3 text-sm font-medium hover:border-neutral-300 dark:border-neutral-800 dark:bg-neutral-900 dark:hover:border-neutral-700"
            >
              {shortcut.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  )
}
