import type { ReactNode } from 'react'
import type { Project } from '../../contracts/projects'
import { StatusBadge } from './StatusBadge'
import { Card, DataList, PageHeading } from './ui'

/** The project URL the server gives: its REST URL without `/rest/v1/` (null when it has none yet). */
export function projectUrlOf(restUrl: string): string | null {
  const match = /^(.*)\/rest\/v1\/?$/.exec(restUrl)
  return match ? match[1] : null
}

/** The project's facts under a page's heading: project home, General settings and the pages that only show the project. */
export function ProjectFacts({ project }: { project: Project }) {
  const projectUrl = projectUrlOf(project.restUrl)
  return (
    <Card>
      <DataList
        rows={[
          ['Name', project.name],
          ...(projectUrl === null ? [] : [['Project URL', <span className="font-mono">{projectUrl}</span>] as [string, ReactNode]]),
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

/** A page that shows the project under its heading: its title, what it is for, then the project's facts once known. */
export function ProjectFactsHeading({ title, description, project }: { title: string; description: ReactNode; project: Project | null }) {
  return (
    <div className="mx-auto w-full max-w-4xl px-6 py-8">
      <PageHeading title={title} description={description} />
      {project ? <ProjectFacts project={project} /> : null}
    </div>
  )
}
