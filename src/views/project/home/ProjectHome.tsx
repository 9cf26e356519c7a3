import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { projectLink, selectProject } from '../../../../machines/projectStatus.machine'
import { href, sqlSection } from '../../../href'
import { useBuildFlags } from '../../shell/contexts'
import { useProjectActor } from '../../shell/projectActor'
import { PageHeading } from '../../shell/ui'
import { ProjectFacts, ProjectFactsHeading } from '../../shell/ProjectFacts'
import { ConnectButton } from './ConnectButton'

/** /project/{ref}/building once the project is up (the gate shows the building screen while it comes up): its facts. */
export function ProjectReadyPage() {
  const project = useSelector(useProjectActor(), selectProject)
  return <ProjectFactsHeading title="Project is ready" description="The project has finished setting up." project={project} />
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
      <PageHeading
        title={project.name}
        description={<>Project <span className="font-mono">{project.ref}</span></>}
        actions={<ConnectButton projectRef={project.ref} />}
      />
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
