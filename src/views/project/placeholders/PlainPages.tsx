/**
 * Project pages with nothing behind them on the local platform yet: each says so in one line and links to what exists.
 * (Settings › Vault, scheduled backups, the Realtime inspector, GraphiQL.)
 */
import { useSelector } from '@xstate/react'
import { projectLink, selectProject } from '../../../../machines/projectStatus.machine'
import type { Project } from '../../../contracts/projects'
import { Card, PageHeading, TextLink } from '../../shell/ui'
import { useProjectActor } from '../../shell/projectActor'

interface PlainPage {
  title: string
  description: string
  /** The one line saying what the platform has (or lacks) here. */
  line: string
  links: Array<{ label: string; section: string }>
}

export const PLAIN_PAGES = {
  'settings/vault': {
    title: 'Vault',
    description: 'Secrets kept encrypted in the project’s database.',
    line: 'The local platform has no Vault: the project’s database has no vault schema. The project’s own secrets (its API keys and JWT secret) are in API settings.',
    links: [{ label: 'API settings', section: 'settings/api' }],
  },
  'database/backups/scheduled': {
    title: 'Scheduled backups',
    description: 'Daily backups of the project’s database.',
    line: 'The local platform takes no scheduled backups of project databases. Pausing a project keeps every row for its restore; Point in Time Recovery is recorded under Add-ons.',
    links: [
      { label: 'Add-ons', section: 'settings/addons' },
      { label: 'Database tables', section: 'database/tables' },
    ],
  },
  'realtime/inspector': {
    title: 'Realtime',
    description: 'Messages on the project’s realtime channels, as they pass.',
    line: 'The local platform has no realtime server yet: there are no channels to inspect. The project’s REST API and its docs are here:',
    links: [
      { label: 'API Docs', section: 'api' },
      { label: 'Table Editor', section: 'editor' },
    ],
  },
  'api/graphiql': {
    title: 'GraphiQL',
    description: 'The project’s GraphQL API, explored in the browser.',
    line: 'The local platform serves no GraphQL: project databases have no pg_graphql. The same tables, views and functions are served over REST, and the API docs show every call:',
    links: [
      { label: 'API Docs', section: 'api' },
      { label: 'Table Editor', section: 'editor' },
    ],
  },
} as const satisfies Record<string, PlainPage>

export type PlainSection = keyof typeof PLAIN_PAGES

// One component per page, for the route table.
export const VaultPage = () => <PlainProjectPage section="settings/vault" />
export const ScheduledBackupsPage = () => <PlainProjectPage section="database/backups/scheduled" />
export const RealtimeInspectorPage = () => <PlainProjectPage section="realtime/inspector" />
export const GraphiqlPage = () => <PlainProjectPage section="api/graphiql" />

function PlainProjectPage({ section }: { section: PlainSection }) {
  const project = useSelector(useProjectActor(), selectProject)
  const page: PlainPage = PLAIN_PAGES[section]
  return (
    <div className="mx-auto w-full max-w-4xl px-6 py-8">
      <PageHeading title={page.title} description={page.description} />
      <Card className="space-y-3 px-5 py-4 text-sm">
        <p>{page.line}</p>
        {project ? <Links project={project} links={page.links} /> : null}
      </Card>
    </div>
  )
}

function Links({ project, links }: { project: Project; links: PlainPage['links'] }) {
  return (
    <ul className="flex flex-wrap gap-4">
      {links.map((link) => (
        <li key={link.section}>
          <TextLink href={projectLink(project, project.ref, link.section)}>{link.label}</TextLink>
        </li>
      ))}
    </ul>
  )
}
