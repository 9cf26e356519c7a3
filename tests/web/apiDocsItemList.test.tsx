/**
 * The API docs panel's first-level lists (src/views/project/apiDocs/ItemList.tsx): a short list renders every row; a
 * long one (1,000 tables) renders the rows in and near the scrolled view, each telling its place in the whole, keeps
 * the height of all its rows, and follows the scrolling. The scrolling area is given a height here (the test DOM lays
 * nothing out); Chromium runs the same list in bench/api-docs.bench.ts.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { DocsScrollRoot, ItemList, VIRTUAL_FROM, type ListRow } from '../../src/views/project/apiDocs/ItemList'

const VIEW_HEIGHT = 440
const rowsOf = (count: number): ListRow[] => Array.from({ length: count }, (_, i) => ({ name: `t${i}`, badge: i % 10 === 0 ? 'View' : undefined, text: i % 2 ? `Table ${i}` : null }))

/** A scrolling area of VIEW_HEIGHT px with the list in it. */
function renderList(rows: ListRow[], onOpen = vi.fn()) {
  const root = document.createElement('div')
  Object.defineProperty(root, 'offsetHeight', { configurable: true, value: VIEW_HEIGHT })
  Object.defineProperty(root, 'offsetWidth', { configurable: true, value: 800 })
  Object.defineProperty(root, 'clientHeight', { configurable: true, value: VIEW_HEIGHT })
  document.body.append(root)
  render(
    <DocsScrollRoot.Provider value={root}>
      <ItemList label="Tables and views" rows={rows} empty="No tables." onOpen={onOpen} />
    </DocsScrollRoot.Provider>,
    { container: root.appendChild(document.createElement('div')) },
  )
  return { root, onOpen, list: () => screen.getByRole('list', { name: 'Tables and views' }) }
}

const names = (list: HTMLElement) => within(list).getAllByRole('listitem').map((li) => li.querySelector('span')!.textContent)

afterEach(() => document.body.replaceChildren())

describe('API docs lists', () => {
  it('a short list renders every row, in order, without place attributes', () => {
    const { list } = renderList(rowsOf(VIRTUAL_FROM - 1))
    expect(names(list())).toEqual(rowsOf(VIRTUAL_FROM - 1).map((r) => r.name))
    expect(within(list()).getAllByRole('listitem')[0]).not.toHaveAttribute('aria-setsize')
  })

  it('a list of 1,000 renders the rows of its view and a few beyond, each with its place in the whole', () => {
    const { list } = renderList(rowsOf(1_000))
    const items = within(list()).getAllByRole('listitem')
    expect(items.length).toBeGreaterThanOrEqual(10)
    expect(items.length).toBeLessThan(40)
    expect(names(list())[0]).toBe('t0')
    expect(items.map((li) => li.getAttribute('aria-posinset'))).toEqual(items.map((_, i) => String(i + 1)))
    for (const li of items) expect(li).toHaveAttribute('aria-setsize', '1000')
    // The list is as tall as all its rows, so the scroll bar is the whole list's.
    const rowHeight = parseFloat(items[1].style.height)
    expect(rowHeight).toBeGreaterThan(40)
    expect(parseFloat(list().style.height)).toBeGreaterThan(999 * rowHeight)
    // A row shows its name, its badge and its description (or that there is none).
    expect(items[0]).toHaveTextContent('t0View')
    expect(items[0]).toHaveTextContent('No description available')
    expect(items[1]).toHaveTextContent('Table 1')
  })

  it('scrolled to the middle and to the end, it renders the rows there; a row there opens its item', async () => {
    const { root, list, onOpen } = renderList(rowsOf(1_000))
    const rowHeight = parseFloat(within(list()).getAllByRole('listitem')[1].style.height)
    await act(async () => {
      root.scrollTop = Math.round(500 * rowHeight)
      fireEvent.scroll(root)
    })
    expect(names(list())).toContain('t500')
    expect(names(list())).not.toContain('t0')
    await act(async () => {
      root.scrollTop = Math.round(1_000 * rowHeight)
      fireEvent.scroll(root)
    })
    const last = within(list()).getAllByRole('listitem').at(-1)!
    expect(last).toHaveAttribute('aria-posinset', '1000')
    fireEvent.click(within(last).getByRole('button', { name: /^t999/ }))
    expect(onOpen).toHaveBeenCalledWith('t999')
  })

  it('keeps the rows after the focused one rendered before any scroll, so Tab never outruns them', async () => {
    const { list } = renderList(rowsOf(1_000))
    const last = within(list()).getAllByRole('listitem').at(-1)!
    const lastPlace = Number(last.getAttribute('aria-posinset'))
    // Tab reaches the last rendered row; the browser's scroll to it has not been handled yet.
    await act(async () => within(last).getByRole('button').focus())
    expect(names(list()).at(-1)).toBe(`t${lastPlace - 1 + 12}`)
    // Leaving the list lets the range follow the scroll alone again.
    await act(async () => (document.activeElement as HTMLElement).blur())
    expect(within(list()).getAllByRole('listitem').at(-1)).toHaveAttribute('aria-posinset', String(lastPlace))
  })

  it('an empty list says so', () => {
    renderList([])
    expect(screen.getByText('No tables.')).toBeInTheDocument()
    expect(screen.queryByRole('list')).toBeNull()
  })
})
