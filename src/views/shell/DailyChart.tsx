/**
 * A bar per day, drawn as SVG: the figure is named by its title, the SVG is an image whose label sums it up, and a
 * table of the same figures follows for those who cannot see the bars (screen readers read it; people may open it).
 */
import { useId } from 'react'
import type { DailySeries } from '../../../machines/orgUsage.machine'

const WIDTH = 600
const HEIGHT = 140
const PAD_TOP = 8
const PAD_BOTTOM = 20

export function DailyChart({ series, title = series.label }: { series: DailySeries; title?: string }) {
  const id = useId()
  const values = series.points.map((p) => p.value ?? 0)
  const max = Math.max(0, ...values)
  const measured = series.points.filter((p) => p.value !== null)
  const slot = WIDTH / Math.max(1, series.points.length)
  const barWidth = Math.max(1, slot * 0.7)
  const plot = HEIGHT - PAD_TOP - PAD_BOTTOM
  const first = series.points[0]?.date
  const last = series.points.at(-1)?.date
  const summary =
    measured.length === 0
      ? `${title}: nothing measured from ${first} to ${last}`
      : `${title} from ${first} to ${last}: highest ${series.format(max)}, ${measured.length} of ${series.points.length} days measured`
  return (
    <figure className="space-y-2" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="text-sm font-medium text-neutral-700 dark:text-neutral-200">
        {title}
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary} className="h-36 w-full text-emerald-600 dark:text-emerald-500" preserveAspectRatio="none">
        <title>{summary}</title>
        <line x1={0} x2={WIDTH} y1={HEIGHT - PAD_BOTTOM} y2={HEIGHT - PAD_BOTTOM} className="stroke-neutral-300 dark:stroke-neutral-700" strokeWidth={1} />
        {series.points.map((point, i) => {
          const h = max > 0 && point.value !== null ? Math.max(point.value > 0 ? 1 : 0, (point.value / max) * plot) : 0
          return (
            <rect key={point.date} x={i * slot + (slot - barWidth) / 2} y={HEIGHT - PAD_BOTTOM - h} width={barWidth} height={h} fill="currentColor" rx={1}>
              <title>{`${point.date}: ${point.value === null ? 'not measured' : series.format(point.value)}`}</title>
            </rect>
          )
        })}
        {first ? (
          <text x={0} y={HEIGHT - 4} className="fill-neutral-500 text-[10px]">
            {first}
          </text>
        ) : null}
        {last && last !== first ? (
          <text x={WIDTH} y={HEIGHT - 4} textAnchor="end" className="fill-neutral-500 text-[10px]">
            {last}
          </text>
        ) : null}
      </svg>
      <details className="text-xs text-neutral-600 dark:text-neutral-300">
        <summary className="cursor-pointer select-none">Show as table</summary>
        <table aria-label={`${title} (table)`} className="mt-2 min-w-64 text-left">
          <thead>
            <tr>
              <th scope="col" className="pr-6 font-medium">Day</th>
              <th scope="col" className="font-medium">{title}</th>
            </tr>
          </thead>
          <tbody>
            {series.points.map((point) => (
              <tr key={point.date}>
                <th scope="row" className="pr-6 font-mono font-normal">{point.date}</th>
                <td>{point.value === null ? 'Not measured' : series.format(point.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}
