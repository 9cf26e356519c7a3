/**
 * The outcome of a run: one tab per statement's result, each a virtualised grid (100,000 rows scroll as a few dozen
 * drawn ones) whose cells and rows copy on click, CSV and JSON export, a note when the row limit capped the answer;
 * or Explain's plan as a tree.
 */
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual'
import { useRef } from 'react'
import type { PlanNode, SqlRunResult, StatementResult } from '../../../contracts/sqlEditor'
import { Button, cx } from '../../shell/ui'
import { cellText } from './ResultGrid'

const ROW_HEIGHT = 28
const UNMEASURED = { width: 1000, height: 448 }
const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`
const formatDuration = (ms: number) => `${ms < 10 ? ms.toFixed(1) : Math.round(ms).toLocaleString('en-US')} ms`

interface ResultsProps {
  run: SqlRunResult
  selected: number
  onSelect: (index: number) => void
  onCopy: (text: string) => void
  onExport: (format: 'csv' | 'json') => void
}

export function SqlResults({ run, selected, onSelect, onCopy, onExport }: ResultsProps) {
  const result = run.results[selected]
  return (
    <div className="space-y-3">
      {run.results.length > 1 ? (
        <div role="tablist" aria-label="Statement results" className="flex flex-wrap gap-1">
          {run.results.map((r, index) => (
            <button
              key={index}
              type="button"
              role="tab"
              aria-selected={index === selected}
              onClick={() => onSelect(index)}
              className={cx(
                'rounded-md px-2.5 py-1 text-xs font-medium',
                index === selected ? 'bg-neutral-800 text-white dark:bg-neutral-200 dark:text-neutral-900' : 'text-neutral-700 hover:bg-neutral-100 dark:text-neutral-300 dark:hover:bg-neutral-800',
              )}
            >
              {index + 1}. {r.command || 'Statement'}
            </button>
          ))}
        </div>
      ) : null}
      {result ? <StatementView result={result} run={run} onCopy={onCopy} onExport={onExport} /> : <p className="text-sm text-neutral-600 dark:text-neutral-300">Success. No statements ran.</p>}
    </div>
  )
}

function StatementView({ result, run, onCopy, onExport }: { result: StatementResult; run: SqlRunResult; onCopy: (text: string) => void; onExport: (format: 'csv' | 'json') => void }) {
  const hasColumns = result.columns.length > 0
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-3">
        <p role="status" className="flex flex-wrap items-center gap-3 text-sm text-neutral-700 dark:text-neutral-300">
          <span>{!hasColumns && result.command !== 'SELECT' ? `${result.command}: ${plural(result.rowCount, 'row')} affected` : plural(result.rowCount, 'row')}</span>
          <span>{formatDuration(run.durationMs)}</span>
          {run.role !== 'postgres' ? <span className="rounded-full bg-sky-100 px-2 py-0.5 text-xs font-medium text-sky-900">Ran as {run.role}</span> : null}
          {run.readOnly ? <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">Ran read-only</span> : null}
        </p>
        {hasColumns ? (
          <span className="ml-auto flex gap-2">
            <Button onClick={() => onExport('csv')}>Export CSV</Button>
            <Button onClick={() => onExport('json')}>Export JSON</Button>
          </span>
        ) : null}
      </div>
      {result.capped ? (
        <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Limited to the first {plural(run.rowLimit, 'row')}: the query returned more. Raise the row limit to see more.
        </p>
      ) : null}
      {hasColumns ? <VirtualGrid result={result} onCopy={onCopy} /> : <p className="text-sm text-neutral-600 dark:text-neutral-300">Success. No rows returned.</p>}
    </div>
  )
}

/** Rows drawn only where the scroll box shows them; the table's ARIA counts say how many there are. */
function VirtualGrid({ result, onCopy }: { result: StatementResult; onCopy: (text: string) => void }) {
  const box = useRef<HTMLDivElement>(null)
  const rows = useVirtualizer({
    count: result.rows.length,
    getScrollElement: () => box.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    // Before the box is measured, and where nothing is laid out (a box of no height), a box's worth of rows is drawn.
    initialRect: UNMEASURED,
    observeElementRect: (instance, callback) => observeElementRect(instance, (rect) => callback(rect.height > 0 ? rect : UNMEASURED)),
  })
  const template = `4.5rem repeat(${result.columns.length}, minmax(10rem, 1fr))`
  const rowText = (row: Record<string, unknown>) => JSON.stringify(Object.fromEntries(result.columns.map((c) => [c.name, row[c.name] ?? null])))
  return (
    <div ref={box} tabIndex={0} aria-label="Results grid, scrollable" role="region" className="max-h-[28rem] overflow-auto rounded-lg border border-neutral-200 focus-visible:outline-2 focus-visible:outline-emerald-600 dark:border-neutral-800">
      <div role="table" aria-label="Query results" aria-rowcount={result.rows.length + 1} className="min-w-full font-mono text-xs">
        <div role="rowgroup" className="sticky top-0 z-10 bg-neutral-100 dark:bg-neutral-900">
          <div role="row" aria-rowindex={1} className="grid" style={{ gridTemplateColumns: template }}>
            <span role="columnheader" className="px-2 py-2 text-left font-semibold">#</span>
            {result.columns.map((column, index) => (
              <span key={index} role="columnheader" className="truncate px-3 py-2 text-left font-semibold whitespace-nowrap">
                {column.name} <span className="font-normal text-neutral-600 dark:text-neutral-400">{column.type}</span>
              </span>
            ))}
          </div>
        </div>
        <div role="rowgroup" className="relative" style={{ height: rows.getTotalSize() }}>
          {rows.getVirtualItems().map((item) => {
            const row = result.rows[item.index]
            return (
              <div
                key={item.key}
                role="row"
                aria-rowindex={item.index + 2}
                className="absolute left-0 grid w-full border-b border-neutral-100 odd:bg-white even:bg-neutral-50 dark:border-neutral-800 dark:odd:bg-neutral-950 dark:even:bg-neutral-900"
                style={{ gridTemplateColumns: template, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
              >
                <span role="cell" className="px-1">
                  <button type="button" aria-label={`Copy row ${item.index + 1}`} onClick={() => onCopy(rowText(row))} className="w-full rounded px-1 py-1 text-left text-neutral-600 hover:bg-neutral-200 dark:text-neutral-400 dark:hover:bg-neutral-800">
                    {item.index + 1}
                  </button>
                </span>
                {result.columns.map((column, index) => {
                  const value = row[column.name]
                  const text = cellText(value)
                  return (
                    <span key={index} role="cell" className="min-w-0">
                      <button
                        type="button"
                        title="Copy the value"
                        onClick={() => onCopy(value === null || value === undefined ? '' : text)}
                        className={cx('block w-full truncate px-3 py-1.5 text-left hover:bg-emerald-50 dark:hover:bg-neutral-800', value === null || value === undefined ? 'text-neutral-600 italic dark:text-neutral-400' : '')}
                      >
                        {text}
                      </button>
                    </span>
                  )
                })}
              </div>
            )
          })}
        </div>
      </div>
    </div>
  )
}

const PLAN_FACTS: Array<[key: string, label: string]> = [
  ['Relation Name', 'on'],
  ['Index Name', 'using'],
  ['Startup Cost', 'startup cost'],
  ['Total Cost', 'cost'],
  ['Plan Rows', 'rows'],
  ['Plan Width', 'width'],
  ['Filter', 'filter'],
]

/** Explain's plan: each node with its costs, its children nested under it. */
export function PlanTree({ plan }: { plan: PlanNode }) {
  return (
    <ul role="tree" aria-label="Query plan" className="space-y-1 font-mono text-xs">
      <PlanItem node={plan} level={1} />
    </ul>
  )
}

function PlanItem({ node, level }: { node: PlanNode; level: number }) {
  const children = node.Plans ?? []
  return (
    <li role="treeitem" aria-level={level} aria-expanded={children.length > 0 ? true : undefined} aria-selected={false} className="space-y-1">
      <div className="rounded border border-neutral-200 bg-white px-3 py-2 dark:border-neutral-800 dark:bg-neutral-950">
        <span className="font-semibold">{node['Node Type']}</span>
        {PLAN_FACTS.filter(([key]) => node[key] !== undefined).map(([key, label]) => (
          <span key={key} className="ml-3 text-neutral-700 dark:text-neutral-300">
            {label}: {String(node[key])}
          </span>
        ))}
      </div>
      {children.length > 0 ? (
        <ul role="group" className="ml-6 space-y-1 border-l border-neutral-300 pl-3 dark:border-neutral-700">
          {children.map((child, index) => (
            <PlanItem key={index} node={child} level={level + 1} />
          ))}
        </ul>
      ) : null}
    </li>
  )
}
