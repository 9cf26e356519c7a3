/**
 * The Table Editor grid through the real app, on a fake platform: a cell of a column that references another table
 * opens a search of that table (through the same rows route, by its key or its first text column, a page at a time),
 * and the row chosen is the cell's edit, sent with the value the cell held; a cell of 10 MB of text is shown cut,
 * and edited whole.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { RowsPage } from '../../src/contracts/tableEditor'
import { REF } from '../fixtures'
import { fakePlatform, renderApp, useElementSize } from '../fakePlatform'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

const TEAMS = { schema: 'public', table: 'teams', column: 'id', label: 'name' }
const MEMBERS: RowsPage = {
  columns: [
    { name: 'id', type: 'integer', default_value: null, is_nullable: false, is_identity: false, enums: [] },
    { name: 'team', type: 'bigint', default_value: null, is_nullable: true, is_identity: false, enums: [], references: TEAMS },
    { name: 'owner', type: 'uuid', default_value: null, is_nullable: true, is_identity: false, enums: [], references: { schema: 'auth', table: 'users', column: 'id', label: 'email' } },
    { name: 'note', type: 'text', default_value: null, is_nullable: true, is_identity: false, enums: [] },
  ],
  rows: [{ id: 1, team: 7, owner: null, note: 'short' }],
  offset: 0,
  limit: 100,
  total: 1,
  primary_keys: ['id'],
}
const teamsPage = (offset: number, term: string): RowsPage => {
  const all = Array.from({ length: 12 }, (_, i) => ({ id: i + 1, name: i === 7 ? 'Bob' : `Team ${i + 1}` })).filter((r) => term === '' || `${r.id} ${r.name}`.toLowerCase().includes(term))
  return { columns: [MEMBERS.columns[0], { ...MEMBERS.columns[0], name: 'name', type: 'text' }], rows: all.slice(offset, offset + 10), offset, limit: 10, total: all.length, primary_keys: ['id'] }
}

function gridPlatform(members: RowsPage = MEMBERS) {
  const platform = fakePlatform()
  const base = platform.fetch
  const reads: URLSearchParams[] = []
  const patches: unknown[] = []
  vi.stubGlobal('fetch', async (input: Request) => {
    const url = new URL(input.url, 'http://localhost')
    const rows = url.pathname.match(/^\/platform\/projects\/[a-z]{20}\/table-editor\/tables\/([^/]+)\/rows$/)
    if (rows?.[1] === 'members' && input.method === 'GET') return json(members)
    if (rows?.[1] === 'members' && input.method === 'PATCH') {
      const body = (await input.clone().json()) as { values: Record<string, unknown> }
      patches.push(body)
      return json({ row: { ...members.rows[0], ...body.values }, sql: 'update …' })
    }
    if (rows?.[1] === 'teams') {
      reads.push(url.searchParams)
      const search = url.searchParams.get('search')
      return json(teamsPage(Number(url.searchParams.get('offset')), search ? (JSON.parse(search) as { term: string }).term : ''))
    }
    return base(input)
  })
  return { reads, patches }
}

// The virtualised grid renders the rows inside its scroller's size.
useElementSize(448, 1200)
afterEach(() => vi.unstubAllGlobals())

describe('Table Editor: foreign key picker', () => {
  it('searches the referenced table by key or name, pages it, and saves the chosen key as the cell', async () => {
    const { reads, patches } = gridPlatform()
    renderApp(`/project/${REF}/editor/table/members`)
    const cell = await screen.findByRole('gridcell', { name: 'team, row 1: 7' }, { timeout: 15_000 })
    const user = userEvent.setup()
    await user.dblClick(cell)
    const picker = await screen.findByRole('dialog', { name: 'Choose a row of teams' })
    expect(await within(picker).findByRole('status')).toHaveTextContent('Rows 1–10 of 12')
    expect(reads.at(-1)?.get('sort')).toBe(JSON.stringify([{ column: 'id', ascending: true }]))
    expect(reads.at(-1)?.get('limit')).toBe('10')

    await user.click(within(picker).getByRole('button', { name: 'Next' }))
    await waitFor(() => expect(within(picker).getByRole('status')).toHaveTextContent('Rows 11–12 of 12'))
    expect(reads.at(-1)?.get('offset')).toBe('10')

    await user.type(within(picker).getByRole('searchbox', { name: 'Search teams by id or name' }), 'bob')
    await waitFor(() => expect(within(picker).getByRole('status')).toHaveTextContent('Rows 1–1 of 1'))
    expect(JSON.parse(reads.at(-1)!.get('search')!)).toEqual({ term: 'bob', columns: ['id', 'name'] })
    expect(reads.at(-1)?.get('offset')).toBe('0')

    await user.click(within(picker).getByRole('button', { name: '8 Bob' }))
    await waitFor(() => expect(patches).toEqual([{ key: { id: 1 }, previous: { team: 7 }, values: { team: 8 } }]))
    expect(await screen.findByRole('gridcell', { name: 'team, row 1: 8' })).toBeInTheDocument()
    expect(screen.queryByRole('dialog', { name: 'Choose a row of teams' })).toBeNull()
  })

  it('sets a nullable key to NULL, and edits a key into a schema the grid cannot read as its plain value', async () => {
    const { patches } = gridPlatform()
    renderApp(`/project/${REF}/editor/table/members`)
    const user = userEvent.setup()
    await user.dblClick(await screen.findByRole('gridcell', { name: 'team, row 1: 7' }, { timeout: 15_000 }))
    const picker = await screen.findByRole('dialog', { name: 'Choose a row of teams' })
    await within(picker).findByRole('status')
    await user.click(within(picker).getByRole('button', { name: 'Set to NULL' }))
    await waitFor(() => expect(patches).toEqual([{ key: { id: 1 }, previous: { team: 7 }, values: { team: null } }]))

    // auth.users is not a table of the grid's schema: its key is typed.
    await user.dblClick(await screen.findByRole('gridcell', { name: 'owner, row 1: NULL' }))
    expect(screen.getByRole('textbox', { name: 'Edit owner' })).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})

describe('Table Editor: 10 MB in a cell', () => {
  it('shows the first characters and the length, and edits the whole value, sending what the cell held', async () => {
    const big = `${'ab'.repeat(5 * 1024 * 1024)}`
    const { patches } = gridPlatform({ ...MEMBERS, rows: [{ ...MEMBERS.rows[0], note: big }] })
    renderApp(`/project/${REF}/editor/table/members`)
    const cell = await screen.findByRole('gridcell', { name: /^note, row 1: (ab)+… \(10,485,760 characters\)$/ }, { timeout: 15_000 })
    expect(cell.textContent!.length).toBeLessThan(600)
    const user = userEvent.setup()
    await user.dblClick(cell)
    const editor = screen.getByRole('textbox', { name: 'Edit note' })
    expect(editor.tagName).toBe('TEXTAREA')
    expect((editor as HTMLTextAreaElement).value).toHaveLength(big.length)
    fireEvent.change(editor, { target: { value: `${big}!` } })
    fireEvent.keyDown(editor, { key: 'Enter' })
    await waitFor(() => expect(patches).toHaveLength(1))
    const [patch] = patches as { key: unknown; previous: { note: string }; values: { note: string } }[]
    expect(patch.key).toEqual({ id: 1 })
    expect(patch.previous.note === big).toBe(true)
    expect(patch.values.note === `${big}!`).toBe(true)
    expect(await screen.findByRole('gridcell', { name: /^note, row 1: (ab)+… \(10,485,761 characters\)$/ })).toBeInTheDocument()
  })
})
