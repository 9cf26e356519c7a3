import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { projectLink, selectProject } from '../../../../machines/projectStatus.machine'
import type { Project } from '../../../contracts/projects'
import { href, sqlSection } from '../../../href'
import { StatusBadge } from '../../projects/StatusBadge'
import { useBuildFlags } from '../../shell/contexts'
import { useProjectActor } from '../../shell/projectActor'
import { Card, DataList, PageHeading } from '../../shell/ui'

/** The project URL the server gives: its REST URL without `/rest/v1/` (null when it has none yet). */
export function projectUrlOf(restUrl: string): string | null {
  const match = /^(.*)\/rest\/v1\/?$/.exec(restUrl)
  return match ? match[1] : null
}

export function ProjectFacts({ project }: { project: Project }) {
  const projectUrl = projectUrlOf(project.restUrl)
  return (
    <Card>
      <DataList
        rows={[
          ['Name', project.name],
          ...(projectUrl === null ? [] : [['Project URL', <span className="font-mono">{projectUrl}</span>] as [string, React.ReactNode]]),
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

/** /project/{ref}/building once the project is up (the gate shows the building screen while it comes up): its facts. */
export function ProjectReadyPage() {
  const project = useSelector(useProjectActor(), selectProject)
  return (
    <div className="mx-auto w-full max-w-4xl px-6 py-8">
      <PageHeading title="Project is ready" description="The project has finished setting up." />
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
      {/* The layout hosts the branching dialog: the parameter opens it over this page. A preview branch has none of its own. */}
      {flags.isPlatform && !project.is_branch_enabled && project.parent_project_ref === null ? (
        <p className="mt-6 text-sm">
          <Link href={href.branching(href.project(project.ref))} className="font-medium text-emerald-700 hover:underline dark:text-emerald-400">
            Enable database branching
          </Link>
        </p>
      ) : null}
    </div>
  )
}
