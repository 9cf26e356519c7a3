import { useSelector } from '@xstate/react'
import type { ReactNode } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectBuildingView, type BuildingView, type buildingMachine } from '../../../../machines/building.machine'
import { href } from '../../../href'
import { CLIENT_LIBRARIES, EXAMPLE_APPS } from '../clientLibraries'
import { ElapsedNotice } from './ElapsedNotice'
import { lazyComponent } from '../../shell/lazy'

// The keys panel loads with the first building screen, off the project's first load, with its machine.
const BuildingApiKeys = lazyComponent<object>(
  () => import('./BuildingApiKeys'),
  null,
  (logic) => [logic.apiKeys],
)

export function BuildingPage({ actor, projectName }: { actor: ActorRefFrom<typeof buildingMachine>; projectName: string }) {
  const view = useSelector(actor, selectBuildingView)
  const elapsed = useSelector(actor, (snapshot) => snapshot.children.elapsed)
  const ref = useSelector(actor, (snapshot) => snapshot.context.ref)
  const notice = elapsed ? (
    <ElapsedNotice
      actor={elapsed}
      supportHref={href.support({
        category: 'Database_unresponsive',
        ref,
        subject: `Project ${projectName} is stuck setting up`,
        message: `My project ${ref} has been setting up for longer than expected.`,
      })}
    />
  ) : null
  return <BuildingScreen title={view.title} projectName={projectName} notice={notice} />
}

/** The building screen itself; also shown for the moment between 'healthy' and the refreshed project. */
export function BuildingScreen({ title, projectName, notice }: { title: BuildingView['title']; projectName: string; notice?: ReactNode }) {
  return (
    <section aria-labelledby="building-title" className="mx-auto max-w-5xl space-y-8 p-8">
      <header className="space-y-2">
        <p className="text-sm text-neutral-500">{projectName}</p>
        <h1 id="building-title" className="flex items-center gap-3 text-2xl font-semibold">
          <span aria-hidden className="inline-block h-3 w-3 animate-pulse rounded-full bg-amber-500" />
          {title}
        </h1>
        <p className="text-sm text-neutral-600 dark:text-neutral-400">
          We are provisioning your database and API. If the project is not ready after 2 minutes, please contact
          support; until then there is no need to open a ticket.
        </p>
        {notice}
      </header>

      <BuildingApiKeys />

      <section aria-labelledby="client-libraries" className="space-y-3">
        <h2 id="client-libraries" className="text-lg font-medium">Client libraries</h2>
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {CLIENT_LIBRARIES.map((library) => (
            <li key={library.language} className="rounded border border-neutral-200 p-4 dark:border-neutral-700">
              <p className="font-medium">
                {library.language}
                {library.releaseState ? <span className="ml-2 rounded bg-neutral-100 px-1 text-xs dark:bg-neutral-800">{library.releaseState}</span> : null}
                <span className="ml-2 text-xs text-neutral-500">{library.officialSupport ? 'Official' : 'Community'}</span>
              </p>
              <p className="mt-2 flex gap-3 text-sm">
                <a className="underline" href={library.docsUrl} target="_blank" rel="noreferrer">Docs</a>
                <a className="underline" href={library.sourceUrl} target="_blank" rel="noreferrer">See source</a>
              </p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="example-apps" className="space-y-3">
        <h2 id="example-apps" className="text-lg font-medium">Example projects</h2>
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {EXAMPLE_APPS.map((app) => (
            <li key={app.title} className="rounded border border-neutral-200 p-4 dark:border-neutral-700">
              <a className="font-medium underline" href={app.url} target="_blank" rel="noreferrer">{app.title}</a>
              <p className="mt-1 text-sm text-neutral-600 dark:text-neutral-400">{app.description}</p>
            </li>
          ))}
        </ul>
      </section>
    </section>
  )
}
