/**
 * The cards of one organization on the project list, in a grid of one, two or three columns (as the viewport allows).
 * An organization with hundreds of projects is virtualised by rows of cards with @tanstack/react-virtual: only the rows
 * in and near the page's scrolled view are in the document, each card telling its place in the whole (aria-posinset /
 * aria-setsize), and the list keeps the height of all its rows, so the scroll bar, scrolling and keyboard focus behave
 * as over the whole list. A short list renders every card, as a plain grid.
 */
import { useVirtualizer } from '@tanstack/react-virtual'
import { useLayoutEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react'
import type { Project } from '../../contracts/projects'

/** From this many cards on an organization's list is virtualised. */
export const VIRTUAL_FROM = 60
/** Rows rendered beyond each edge of the view, so a fast scroll or Tab does not outrun them. */
const OVERSCAN = 4
/** The grid's gap (gap-4) in rem. */
const GAP_REM = 1
/**
 * A card's height in rem before it is measured (p-4 around a line of text and two of text-xs, and its border); each
 * row's first card is measured once rendered, so a card that grows moves the rows below it.
 */
const CARD_REM = 6.625

const GRID_CLASS = 'grid gap-4 sm:grid-cols-2 lg:grid-cols-3'

/** The columns GRID_CLASS gives at the viewport's width: Tailwind's sm (40rem) and lg (64rem) breakpoints. */
const WIDE = '(min-width: 64rem)'
const MEDIUM = '(min-width: 40rem)'
function subscribeColumns(onChange: () => void) {
  const queries = [window.matchMedia(WIDE), window.matchMedia(MEDIUM)]
  for (const query of queries) query.addEventListener('change', onChange)
  return () => {
    for (const query of queries) query.removeEventListener('change', onChange)
  }
}
const columnsNow = () => (window.matchMedia(WIDE).matches ? 3 : window.matchMedia(MEDIUM).matches ? 2 : 1)
const useColumns = () => useSyncExternalStore(subscribeColumns, columnsNow, () => 1)

interface ProjectGridProps {
  projects: Project[]
  renderCard: (project: Project) => ReactNode
}

export function ProjectGrid(props: ProjectGridProps) {
  return props.projects.length >= VIRTUAL_FROM ? <VirtualGrid {...props} /> : <PlainGrid {...props} />
}

function PlainGrid({ projects, renderCard }: ProjectGridProps) {
  return (
    <ul className={GRID_CLASS}>
      {projects.map((project) => (
        <li key={project.ref}>{renderCard(project)}</li>
      ))}
    </ul>
  )
}

/** The nearest ancestor that scrolls (the page's main area), or the document's scrolling element. */
function scrollingAncestor(element: HTMLElement): HTMLElement {
  for (let node = element.parentElement; node; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node)
    if (overflowY === 'auto' || overflowY === 'scroll') return node
  }
  return (document.scrollingElement as HTMLElement | null) ?? document.documentElement
}

function VirtualGrid({ projects, renderCard }: ProjectGridProps) {
  const listRef = useRef<HTMLUListElement>(null)
  const columns = useColumns()
  const [rem] = useState(() => parseFloat(getComputedStyle(document.documentElement).fontSize) || 16)
  const cardHeight = CARD_REM * rem
  const gap = GAP_REM * rem
  // The scrolling area, an element in state: found after the first commit, its arrival renders the rows.
  const [root, setRoot] = useState<HTMLElement | null>(null)
  // Where the list starts in the scrolling area (the heading, the search and the organizations above it), read before
  // paint whenever the list changes: a search or a refresh changes the height of the lists above this one too, and
  // every list gets the new, filtered list at once. (Not on scrolling, which re-renders the rows only.)
  const [offset, setOffset] = useState(0)
  useLayoutEffect(() => {
    const list = listRef.current
    if (!list) return
    const area = root ?? scrollingAncestor(list)
    if (area !== root) setRoot(area)
    const top = list.getBoundingClientRect().top - area.getBoundingClientRect().top + area.scrollTop
    setOffset((previous) => (Math.abs(top - previous) >= 1 ? top : previous))
  }, [root, projects, columns])
  const rows = Math.ceil(projects.length / columns)
  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => root,
    estimateSize: () => cardHeight,
    // A row not laid out (measured 0) keeps its estimate.
    measureElement: (element) => (element as HTMLElement).offsetHeight || cardHeight,
    getItemKey: (row) => `${columns}:${projects[row * columns].ref}`,
    gap,
    overscan: OVERSCAN,
    scrollMargin: offset,
  })
  // A card's width and left edge in a row of `columns` cards with `gap` between them.
  const width = `calc((100% - ${(columns - 1) * gap}px) / ${columns})`
  return (
    <ul ref={listRef} className="relative" style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().flatMap((row) =>
        projects.slice(row.index * columns, row.index * columns + columns).map((project, column) => {
          const index = row.index * columns + column
          return (
            <li
              key={project.ref}
              ref={column === 0 ? virtualizer.measureElement : undefined}
              data-index={row.index}
              aria-setsize={projects.length}
              aria-posinset={index + 1}
              className="absolute top-0"
              style={{
                width,
                left: column === 0 ? 0 : `calc(${column} * (${width} + ${gap}px))`,
                transform: `translateY(${row.start - offset}px)`,
              }}
            >
              {renderCard(project)}
            </li>
          )
        }),
      )}
    </ul>
  )
}
