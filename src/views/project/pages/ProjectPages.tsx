import { useSelector } from '@xstate/react'
import { Link, useLocation } from 'wouter'
import { projectLink, selectProject } from '../../../../machines/projectStatus.machine'
import { useBuildFlags } from '../../shell/contexts'
import { PageHeading } from '../../shell/ui'
import { ProjectFacts, ProjectFactsHeading } from '../../shell/ProjectFacts'
import { useProjectActor } from '../projectActor'
import { databaseToolOf, isApiDocsPage, productPageOf, sqlSection } from '../../routes/projectRoutes'
import { lazyComponent } from '../../shell/lazy'
import { LazyApiDocsPage } from '../apiDocs/lazy'
import { Loading } from '../../shell/ui'
import { branchingHref } from '../../routes/branchingParam'

// The database tools load with their first visit, off the project's first load, each with its machine.
const pageLoading = <Loading label="Loading page…" />
const SqlEditorPage = lazyComponent<object>(
  () => import('../database/SqlEditorPage').then((m) => ({ default: m.SqlEditorPage })),
  pageLoading,
  (logic) => [logic.sqlEditor],
)
const TableEditorPage = lazyComponent<object>(
  () => import('../database/TableEditorPage').then((m) => ({ default: m.TableEditorPage })),
  pageLoading,
  (logic) => [logic.tableEditor],
)
const DatabaseTablesPage = lazyComponent<object>(
  () => import('../database/DatabaseTablesPage').then((m) => ({ default: m.DatabaseTablesPage })),
  pageLoading,
  (logic) => [logic.databaseTables],
)

// The product pages load the same way.
const StorageBucketsPage = lazyComponent<object>(
  () => import('../storage/StorageBucketsPage').then((m) => ({ default: m.StorageBucketsPage })),
  pageLoading,
  (logic) => [logic.storageBuckets],
)
const EdgeFunctionsPage = lazyComponent<object>(
  () => import('../functions/EdgeFunctionsPage').then((m) => ({ default: m.EdgeFunctionsPage })),
  pageLoading,
  (logic) => [logic.edgeFunctions],
)

// Reports and Logs (measured by the REST endpoint) load the same way.
const ReportsPage = lazyComponent<object>(
  () => import('../observability/ReportsPage').then((m) => ({ default: m.ReportsPage })),
  pageLoading,
  (logic) => [logic.projectReports],
)
const LogsPage = lazyComponent<object>(
  () => import('../observability/LogsPage').then((m) => ({ default: m.LogsPage })),
  pageLoading,
  (logic) => [logic.projectLogs],
)
// The Branches page loads the same way, with its machine and the enablement modal's.
const BranchesPage = lazyComponent<object>(
  () => import('../branches/BranchesPage').then((m) => ({ default: m.BranchesPage })),
  pageLoading,
  (logic) => [logic.branchStatus],
)

/**
 * A project page by its route: the database tools (SQL Editor, Table Editor, Database › Tables), or, for a page
 * its issue has not filled yet, its title and the project's data, never a blank page.
 */
export function ToolPage({ title, note }: { title: string; note?: string }) {
  const [path] = useLocation()
  const tool = databaseToolOf(path)
  if (tool === 'sql') return <SqlEditorPage />
  if (tool === 'tableEditor') return <TableEditorPage />
  if (tool === 'databaseTables') return <DatabaseTablesPage />
  if (isApiDocsPage(path)) return <LazyApiDocsPage />
  const product = productPageOf(path)
  if (product === 'storageBuckets') return <StorageBucketsPage />
  if (product === 'edgeFunctions') return <EdgeFunctionsPage />
  if (/^\/project\/[^/]+\/reports\/*$/.test(path)) return <ReportsPage />
  if (/^\/project\/[^/]+\/logs\/explorer\/*$/.test(path)) return <LogsPage />
  if (/^\/project\/[^/]+\/branches\/*$/.test(path)) return <BranchesPage />
  return <PlaceholderPage title={title} note={note} />
}

function PlaceholderPage({ title, note }: { title: string; note?: string }) {
  const project = useSelector(useProjectActor(), selectProject)
  return <ProjectFactsHeading title={title} description={note ?? 'This page is being built; the project it belongs to is below.'} project={project} />
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
          <Link href={branchingHref(`/project/${project.ref}`)} className="font-medium text-emerald-700 hover:underline dark:text-emerald-400">
            Enable database branching
          </Link>
        </p>
      ) : null}
    </div>
  )
}
