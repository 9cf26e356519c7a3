/**
 * The overview's figures of a function for the period chosen, as its stats machine holds them (the Management API's
 * functions.combined-stats): the invocations chart, execution time, the worker's CPU time and its memory.
 */
import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { COMBINED_STATS_INTERVALS } from '../../../contracts/functions'
import { STATS_PERIODS, selectFunctionStatsView, type functionStatsMachine } from '../../../../machines/functionStats.machine'
import { DataList, InlineError, Loading, cx } from '../../shell/ui'
import { InvocationsChart } from './InvocationsChart'

export type FunctionStatsActorRef = ActorRefFrom<typeof functionStatsMachine>

const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`
const mb = (n: number) => `${n.toFixed(1)} MB`

export function FunctionStats({ actor }: { actor: FunctionStatsActorRef }) {
  const view = useSelector(actor, selectFunctionStatsView)
  const { totals } = view
  return (
    <div className="space-y-4">
      <div role="group" aria-label="Period" className="inline-flex rounded-md border border-neutral-300 dark:border-neutral-700">
        {COMBINED_STATS_INTERVALS.map((interval) => (
          <button
            key={interval}
            type="button"
            aria-pressed={view.interval === interval}
            onClick={() => actor.send({ type: 'interval.select', interval })}
            className={cx(
              'px-3 py-1.5 text-sm first:rounded-l-md last:rounded-r-md',
              view.interval === interval ? 'bg-neutral-900 text-white dark:bg-neutral-100 dark:text-neutral-900' : 'text-neutral-700 dark:text-neutral-200',
            )}
          >
            {`Last ${STATS_PERIODS[interval].label}`}
          </button>
        ))}
      </div>
      {view.error ? <InlineError>{view.error}</InlineError> : null}
      {view.loading ? <Loading label="Loading the figures…" /> : null}
      {totals ? (
        <>
          <DataList
            rows={[
              ['Invocations in the period', `${totals.requests} (${totals.failed} failed)`],
              ['Execution time', totals.requests === 0 ? '—' : `${ms(totals.avgExecutionTime)} on average, ${ms(totals.maxExecutionTime)} at most`],
              ['CPU time', totals.requests === 0 ? '—' : `${ms(totals.avgCpuTime)} on average, ${ms(totals.maxCpuTime)} at most`],
              [
                'Memory',
                totals.requests === 0 ? '—' : `${mb(totals.avgMemory)} on average (heap ${mb(totals.avgHeapMemory)}, external ${mb(totals.avgExternalMemory)})`,
              ],
            ]}
          />
          <InvocationsChart buckets={view.buckets} unit={view.unit} />
        </>
      ) : null}
    </div>
  )
}
