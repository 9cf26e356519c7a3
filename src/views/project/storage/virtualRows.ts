/**
 * A long list of a bucket's entries (the list's table, each column of the columns view), virtualised with
 * @tanstack/react-virtual: only the entries in and near the scrolled view are in the document, with spacers standing
 * for the rest, so a folder of 10,000 objects scrolls as one of ten.
 *
 * The keyboard reaches every entry, not only the rendered ones: Up and Down, Page Up and Page Down, Home and End on
 * an entry (an element with `data-entry-index`) move to another by its index, scrolling it into view. The entry that
 * holds the focus, and any the caller keeps (a column's open folder, which Left steps back to), stay rendered when
 * scrolled away, so the focus is never lost with its element. Only the document's focus and scroll are kept here;
 * what is listed and opened is the machine's.
 */
import { defaultRangeExtractor, observeElementRect, useVirtualizer, type Range } from '@tanstack/react-virtual'
import { useCallback, useLayoutEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react'

/** Before the box is measured, and where nothing is laid out (a box of no height), a box's worth of rows is drawn. */
const UNMEASURED = { width: 1000, height: 512 }
/**
 * Entries rendered beyond each edge of the view, so a wheel's step or Tab finds the next one already there. Few: in a
 * fling every rendered entry is new each frame, and each one beyond the view is paid for without being seen.
 */
const OVERSCAN = 4

/** What to render, in order: an entry by its index, or a spacer of the height of the entries between. */
export type Slot = { kind: 'entry'; index: number; key: string | number } | { kind: 'spacer'; height: number; key: string }

export function useVirtualRows({
  entries,
  rowHeight,
  keep = [],
  canFocus = () => true,
}: {
  /** The entries, by name (a new array only when they change: the virtualiser's keys follow them). */
  entries: readonly { name: string }[]
  /** Every entry's height in px: given, never measured, so rendering an entry reads no layout. */
  rowHeight: number
  /** Entries kept rendered wherever the view is. */
  keep?: number[]
  /** Whether an entry takes the focus (a column's files beside its open folder do not): moves pass over the others. */
  canFocus?: (index: number) => boolean
}) {
  const box = useRef<HTMLDivElement>(null)
  const count = entries.length
  // The same function while the entries are the same: a new one makes the virtualiser place every entry again.
  const getItemKey = useCallback((index: number) => entries[index].name, [entries])
  const [held, setHeld] = useState<number | null>(null)
  const focusNext = useRef<number | null>(null)
  const kept = [held, ...keep].filter((i): i is number => i !== null && i >= 0 && i < count)
  const keptKey = kept.join(',')
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range)
      for (const i of keptKey === '' ? [] : keptKey.split(',').map(Number)) if (!indexes.includes(i)) indexes.push(i)
      return indexes.sort((a, b) => a - b)
    },
    [keptKey],
  )
  const rows = useVirtualizer({
    count,
    getScrollElement: () => box.current,
    estimateSize: () => rowHeight,
    getItemKey,
    overscan: OVERSCAN,
    rangeExtractor,
    initialRect: UNMEASURED,
    observeElementRect: (instance, callback) => observeElementRect(instance, (rect) => callback(rect.height > 0 ? rect : UNMEASURED)),
  })

  const entryAt = (index: number) => box.current?.querySelector<HTMLElement>(`[data-entry-index="${index}"]`)

  // After the render that brought the entry moved to into the document, the focus goes to it.
  useLayoutEffect(() => {
    if (focusNext.current === null) return
    const entry = entryAt(focusNext.current)
    if (!entry) return
    focusNext.current = null
    entry.focus()
  })

  function moveTo(index: number, step: 1 | -1) {
    let to = Math.min(Math.max(index, 0), count - 1)
    while (to >= 0 && to < count && !canFocus(to)) to += step
    if (to < 0 || to >= count) return
    rows.scrollToIndex(to, { align: 'auto' })
    const entry = entryAt(to)
    if (entry) entry.focus()
    else focusNext.current = to
    setHeld(to)
  }

  /** Moves between entries; true when the key was one of the list's. */
  function onKeyDown(event: KeyboardEvent<HTMLElement>): boolean {
    const from = (event.target as HTMLElement).closest<HTMLElement>('[data-entry-index]')
    if (!from || from !== event.target) return false
    const at = Number(from.dataset.entryIndex)
    const page = Math.max(1, Math.floor((box.current?.clientHeight || UNMEASURED.height) / rowHeight) - 1)
    const moves: Record<string, [number, 1 | -1]> = { ArrowDown: [at + 1, 1], ArrowUp: [at - 1, -1], PageDown: [at + page, -1], PageUp: [at - page, 1], Home: [0, 1], End: [count - 1, -1] }
    const move = moves[event.key]
    if (!move) return false
    event.preventDefault()
    moveTo(...move)
    return true
  }

  /** The entry focused (by Tab or a click) stays rendered while the view scrolls away from it. */
  function onFocus(event: FocusEvent<HTMLElement>) {
    const entry = (event.target as HTMLElement).closest<HTMLElement>('[data-entry-index]')
    if (entry) setHeld(Number(entry.dataset.entryIndex))
  }

  const slots: Slot[] = []
  let end = 0
  for (const item of rows.getVirtualItems()) {
    if (item.start > end) slots.push({ kind: 'spacer', height: item.start - end, key: `gap-${item.index}` })
    slots.push({ kind: 'entry', index: item.index, key: item.key as string | number })
    end = item.end
  }
  if (rows.getTotalSize() > end) slots.push({ kind: 'spacer', height: rows.getTotalSize() - end, key: 'gap-end' })

  return { box, slots, onKeyDown, onFocus }
}
