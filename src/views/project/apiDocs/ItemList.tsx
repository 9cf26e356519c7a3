/**
 * A first-level list of the API docs panel (tables and views, stored procedures, buckets, edge functions): one button
 * per item, opening its entity page. A long list (a database with 1,000 tables) is virtualised with
 * @tanstack/react-virtual: only the rows in and near the panel's scrolled view are in the document, each telling its
 * place in the whole (aria-posinset / aria-setsize), and the list keeps the height of all its rows, so the scroll bar,
 * scrolling and keyboard focus behave as over the whole list. A short list renders every row.
 */
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual'
import { createContext, memo, useCallback, useContext, useLayoutEffect, useRef, useState, type FocusEvent } from 'react'
import { cx } from '../../shell/ui'

export const NO_DESCRIPTION = 'No description available'

/** From this many rows on a list is virtualised. */
export const VIRTUAL_FROM = 100
/** Rows rendered beyond each edge of the view, so a fast scroll or Tab does not outrun them. */
const OVERSCAN = 12
/**
 * A row's height in rem: py-3 around one line of text-sm (the text is cut, never wrapped). Rows are given this height
 * rather than measured, so rendering them reads no layout; a row after the first adds its 1px border.
 */
const ROW_REM = 2.75

/**
 * The panel's scrolling content area, which a virtualised list reads its view from. An element, not a ref: a list
 * mounted in the same commit as the area runs its layout effects before the area's ref is set, and the element
 * arriving re-renders the list.
 */
export const DocsScrollRoot = createContext<HTMLElement | null>(null)

export interface ListRow {
  name: string
  badge?: string
  text: string | null
}

interface ItemListProps {
  label: string
  rows: ListRow[]
  empty: string
  onOpen: (name: string) => void
}

export const ItemList = memo(function ItemList(props: ItemListProps) {
  if (props.rows.length === 0) return <p className="rounded-lg border border-dashed border-neutral-300 p-6 text-center text-sm text-neutral-500 dark:border-neutral-700">{props.empty}</p>
  return props.rows.length >= VIRTUAL_FROM ? <VirtualList {...props} /> : <PlainList {...props} />
})

const LIST_CLASS = 'rounded-lg border border-neutral-200 dark:border-neutral-800'

function PlainList({ label, rows, onOpen }: ItemListProps) {
  return (
    <ul aria-label={label} className={LIST_CLASS}>
      {rows.map((row, index) => (
        <li key={row.name} className={cx(index > 0 && 'border-t border-neutral-200 dark:border-neutral-800')}>
          <RowButton row={row} onOpen={onOpen} />
        </li>
      ))}
    </ul>
  )
}

function VirtualList({ label, rows, onOpen }: ItemListProps) {
  const root = useContext(DocsScrollRoot)
  const listRef = useRef<HTMLUListElement>(null)
  // Where the list starts in the scrolling area (the section's heading is above it), measured before paint.
  const [offset, setOffset] = useState(0)
  useLayoutEffect(() => {
    const list = listRef.current
    if (!list || !root) return
    setOffset(list.getBoundingClientRect().top - root.getBoundingClientRect().top + root.scrollTop)
  }, [root])
  const [rowHeight] = useState(() => ROW_REM * (parseFloat(getComputedStyle(document.documentElement).fontSize) || 16))
  // The row that has the keyboard focus, with OVERSCAN rows each side, stays rendered whatever the scroll position
  // says: Tab moves the focus to the next row before the scroll it causes has re-rendered the range, and on a busy
  // machine that re-render came after the next Tab, which then left the list.
  const [focused, setFocused] = useState<number>()
  const rangeExtractor = useCallback(
    (range: Range) => {
      const shown = defaultRangeExtractor(range)
      if (focused === undefined) return shown
      const near = new Set(shown)
      for (let i = Math.max(0, focused - OVERSCAN); i <= Math.min(range.count - 1, focused + OVERSCAN); i++) near.add(i)
      return [...near].sort((a, b) => a - b)
    },
    [focused],
  )
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => root,
    estimateSize: (index) => rowHeight + (index > 0 ? 1 : 0),
    getItemKey: (index) => rows[index].name,
    overscan: OVERSCAN,
    scrollMargin: offset,
    rangeExtractor,
  })
  const onFocus = (event: FocusEvent<HTMLUListElement>) => {
    const place = Number(event.target.closest('li')?.getAttribute('aria-posinset'))
    if (place > 0) setFocused(place - 1)
  }
  const onBlur = (event: FocusEvent<HTMLUListElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(undefined)
  }
  return (
    <ul ref={listRef} aria-label={label} className={cx(LIST_CLASS, 'relative')} style={{ height: virtualizer.getTotalSize() + 2 }} onFocus={onFocus} onBlur={onBlur}>
      {virtualizer.getVirtualItems().map((item) => {
        const row = rows[item.index]
        return (
          <li
            key={item.key}
            aria-setsize={rows.length}
            aria-posinset={item.index + 1}
            className={cx('absolute inset-x-0 top-0 overflow-hidden', item.index > 0 && 'border-t border-neutral-200 dark:border-neutral-800')}
            style={{ height: item.size, transform: `translateY(${item.start - offset}px)` }}
          >
            <RowButton row={row} onOpen={onOpen} />
          </li>
        )
      })}
    </ul>
  )
}

function RowButton({ row, onOpen }: { row: ListRow; onOpen: (name: string) => void }) {
  return (
    <button type="button" onClick={() => onOpen(row.name)} className="flex w-full items-baseline gap-3 px-4 py-3 text-left hover:bg-neutral-50 dark:hover:bg-neutral-800/60">
      <span className="font-mono text-sm font-medium">{row.name}</span>
      {row.badge ? <Badge>{row.badge}</Badge> : null}
      <span className="truncate text-sm text-neutral-500">{row.text ?? NO_DESCRIPTION}</span>
    </button>
  )
}

export function Badge({ children }: { children: string }) {
  return <span className="shrink-0 rounded-full bg-neutral-100 px-2 py-0.5 text-xs text-neutral-600 dark:bg-neutral-800 dark:text-neutral-300">{children}</span>
}
