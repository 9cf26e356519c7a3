import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { selectEdgeFunctionsView, type edgeFunctionsMachine } from '../../../../machines/edgeFunctions.machine'
import type { FunctionResponse } from '../../../contracts/functions'
import { useAppLogic } from '../../shell/logic'
import { Link } from 'wouter'
import { href } from '../../../href'
import { Card, ErrorPanel, Loading, PageHeading, TextLink, cx } from '../../shell/ui'
import { PAGE_CLASS, ProjectMachinePage } from '../ProjectMachinePage'

export type EdgeFunctionsActorRef = ActorRefFrom<typeof edgeFunctionsMachine>

const HEADING = { title: 'Edge Functions', description: "The project's server-side functions, deployed with the CLI or the Management API." }

/** /project/{ref}/functions */
export function EdgeFunctionsPage() {
  const logic = useAppLogic()
  return (
    <ProjectMachinePage
      machine={logic.edgeFunctions}
      heading={HEADING}
      loadingLabel="Loading functions…"
      input={(ref) => ({ ref })}
      render={(actor) => <EdgeFunctions actor={actor} />}
    />
  )
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const pad = (n: number) => String(n).padStart(2, '0')
/** DD MMM YYYY HH:mm in UTC (the time format of the dashboard's other dates). */
function formatUpdatedAt(ms: number): string {
  const d = new Date(ms)
  if (Number.isNaN(d.getTime())) return String(ms)
  return `${pad(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`
}

export function EdgeFunctions({ actor }: { actor: EdgeFunctionsActorRef }) {
  const view = useSelector(actor, selectEdgeFunctionsView)
  const ref = useSelector(actor, (snapshot) => snapshot.context.ref)
  return (
    <div className={PAGE_CLASS}>
      <PageHeading
        {...HEADING}
        actions={
          <Link
            href={href.project(ref, 'functions/new')}
            className="inline-flex items-center rounded-md border border-neutral-300 bg-white px-3 py-1.5 text-sm font-medium text-neutral-800 shadow-xs hover:bg-neutral-50 dark:border-neutral-700 dark:bg-neutral-800 dark:text-neutral-100"
          >
            Deploy a new function
          </Link>
        }
      />
      {view.phase === 'loading' ? <Loading label="Loading functions…" /> : null}
      {view.phase === 'failed' ? (
        <ErrorPanel title="Failed to load functions" message={view.error} onRetry={() => actor.send({ type: 'functions.retry' })} />
      ) : null}
      {view.phase === 'loaded' ? (
        view.functions.length === 0 ? (
          <p className="rounded-lg border border-dashed border-neutral-300 p-8 text-center text-sm text-neutral-500 dark:border-neutral-700">
            No edge functions yet. Deploy one with <span className="font-mono">supabase functions deploy</span> or the Management API.
          </p>
        ) : (
          <FunctionList functions={view.functions} projectRef={ref} />
        )
      ) : null}
    </div>
  )
}

function FunctionList({ functions, projectRef }: { functions: FunctionResponse[]; projectRef: string }) {
  return (
    <Card>
      <div className="overflow-x-auto">
        <table aria-label="Functions" className="min-w-full text-sm">
          <thead className="border-b border-neutral-200 text-left text-xs text-neutral-500 dark:border-neutral-800 dark:text-neutral-400">
            <tr>
              <th scope="col" className="px-5 py-2 font-medium">Name</th>
              <th scope="col" className="px-3 py-2 font-medium">Slug</th>
              <th scope="col" className="px-3 py-2 font-medium">Status</th>
              <th scope="col" className="px-3 py-2 font-medium">Version</th>
              <th scope="col" className="px-3 py-2 font-medium">Updated at</th>
              <th scope="col" className="px-5 py-2 font-medium">Verify JWT</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-neutral-100 dark:divide-neutral-800">
            {functions.map((fn) => (
              <tr key={fn.id}>
                <th scope="row" className="px-5 py-3 text-left font-medium">
                  <TextLink href={href.project(projectRef, `functions/${fn.slug}`)}>{fn.name}</TextLink>
                </th>
                <td className="px-3 py-3 font-mono text-xs">{fn.slug}</td>
                <td className="px-3 py-3">
                  <span
                    className={cx(
                      'rounded-full px-2 py-0.5 text-xs',
                      fn.status === 'ACTIVE'
                        ? 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200'
                        : fn.status === 'THROTTLED'
                          ? 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200'
                          : 'bg-neutral-100 text-neutral-700 dark:bg-neutral-800 dark:text-neutral-300',
                    )}
                  >
                    {fn.status}
                  </span>
                </td>
                <td className="px-3 py-3">{fn.version}</td>
                <td className="px-3 py-3 whitespace-nowrap">
                  <time dateTime={Number.isNaN(new Date(fn.updated_at).getTime()) ? undefined : new Date(fn.updated_at).toISOString()}>{formatUpdatedAt(fn.updated_at)}</time>
                </td>
                {/* The contract leaves verify_jwt optional; the platform verifies a JWT unless told not to. */}
                <td className="px-5 py-3">{fn.verify_jwt === false ? 'No' : 'Yes'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  )
}
