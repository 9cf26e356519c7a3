/**
 * The overview's invocations per minute or per hour (functions.combined-stats' buckets), drawn as SVG: answered calls
 * and failed ones (status 400 or more) stacked in each bucket's bar. The SVG is an image whose label sums it up, and a table of the same figures follows for those
 * who cannot see the bars.
 */
import { useId } from 'react'
import type { InvocationBucket } from '../../../../machines/functionStats.machine'

const WIDTH = 600
const HEIGHT = 120
const PAD_TOP = 6
const PAD_BOTTOM = 18

/** HH:mm in UTC. */
const minuteOf = (ms: number) => new Date(ms).toISOString().slice(11, 16)

export function InvocationsChart({ buckets, unit }: { buckets: InvocationBucket[]; unit: 'minute' | 'hour' }) {
  const id = useId()
  const title = `Invocations per ${unit}`
  if (buckets.length === 0) return <p className="text-sm text-neutral-600 dark:text-neutral-300">No invocations in this period: the chart fills as the function is called.</p>
  const totals = buckets.map((b) => b.ok + b.failed)
  const max = Math.max(1, ...totals)
  const calls = totals.reduce((a, b) => a + b, 0)
  const failed = buckets.reduce((a, b) => a + b.failed, 0)
  const first = minuteOf(buckets[0].start)
  const last = minuteOf(buckets.at(-1)!.start)
  const summary = `${title} from ${first} to ${last} UTC: ${calls} calls, ${failed} failed, at most ${Math.max(...totals)} in ${unit === 'hour' ? 'an' : 'a'} ${unit}`
  const slot = WIDTH / buckets.length
  const barWidth = Math.max(1, slot * 0.7)
  const plot = HEIGHT - PAD_TOP - PAD_BOTTOM
  const height = (n: number) => (n / max) * plot
  return (
    <figure className="space-y-2" aria-labelledby={`${id}-title`}>
      <figcaption className="flex items-center gap-4 text-sm font-medium text-neutral-700 dark:text-neutral-200">
        <span id={`${id}-title`} className="mr-auto">{title}</span>
        <span className="flex items-center gap-1 text-xs font-normal"><span aria-hidden="true" className="inline-block size-2 rounded-sm bg-emerald-600" />Answered</span>
        <span className="flex items-center gap-1 text-xs font-normal"><span aria-hidden="true" className="inline-block size-2 rounded-sm bg-red-600" />Failed</span>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary} className="h-32 w-full" preserveAspectRatio="none">
        <title>{summary}</title>
        <line x1={0} x2={WIDTH} y1={HEIGHT - PAD_BOTTOM} y2={HEIGHT - PAD_BOTTOM} className="stroke-neutral-300 dark:stroke-neutral-700" strokeWidth={1} />
        {buckets.map((b, i) => {
          const okH = height(b.ok)
          const failedH = height(b.failed)
          const x = i * slot + (slot - barWidth) / 2
          return (
            <g key={b.start}>
              <title>{`${minuteOf(b.start)}: ${b.ok} answered, ${b.failed} failed`}</title>
              <rect x={x} y={HEIGHT - PAD_BOTTOM - okH} width={barWidth} height={okH} className="fill-emerald-600" rx={1} />
              <rect x={x} y={HEIGHT - PAD_BOTTOM - okH - failedH} width={barWidth} height={failedH} className="fill-red-600" rx={1} />
            </g>
          )
        })}
        <text x={0} y={HEIGHT - 4} className="fill-neutral-500 text-[10px]">{first}</text>
        <text x={WIDTH} y={HEIGHT - 4} textAnchor="end" className="fill-neutral-500 text-[10px]">{last}</text>
      </svg>
      <details className="text-xs text-neutral-600 dark:text-neutral-300">
        <summary className="cursor-pointer select-none">Show as table</summary>
        <table aria-label={`${title} (table)`} className="mt-2 min-w-64 text-left">
          <thead>
            <tr>
              <th scope="col" className="pr-6 font-medium">{unit === 'minute' ? 'Minute (UTC)' : 'Hour (UTC)'}</th>
              <th scope="col" className="pr-6 font-medium">Answered</th>
              <th scope="col" className="font-medium">Failed</th>
            </tr>
          </thead>
          <tbody>
            {buckets.filter((b) => b.ok + b.failed > 0).map((b) => (
              <tr key={b.start}>
                <th scope="row" className="pr-6 font-mono font-normal">{minuteOf(b.start)}</th>
                <td className="pr-6">{b.ok}</td>
                <td>{b.failed}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}
