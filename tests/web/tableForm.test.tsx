/**
 * The Table Editor's alter form through the real app, on a fake platform: the table read as the catalog has it, a
 * column dropped, a foreign key picked into another schema, the SQL asked for and then run with what was reviewed.
 */
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { TableDefinition, TableReferences } from '../../src/contracts/tableEditor'
import { REF } from '../fixtures'
import { fakePlatform, renderApp } from '../fakePlatform'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

const KIDS: TableDefinition = {
  name: 'kids',
  comment: '',
  rls_enabled: true,
  columns: [
    { original_name: 'id', name: 'id', type: 'integer', default: '', nullable: false, unique: false, primary_key: true, identity: false },
    { original_name: 'parent', name: 'parent', type: 'text', default: '', nullable: true, unique: false, primary_key: false, identity: false },
    { original_name: 'note', name: 'note', type: 'text', default: '', nullable: true, unique: false, primary_key: false, identity: false },
  ],
  foreign_keys: [],
}
const REFERENCES: TableReferences = {
  tables: [
    { schema: 'auth', name: 'users', columns: [{ name: 'id', type: 'uuid', unique: true }, { name: 'email', type: 'text', unique: false }] },
    { schema: 'public', name: 'kids', columns: [{ name: 'id', type: 'integer', unique: true }] },
    { schema: "ref 'schema", name: 'pärents', columns: [{ name: 'code', type: 'text', unique: true }, { name: 'tag', type: 'text', unique: true }] },
  ],
}
const SQL = 'alter table "public"."kids" drop column "note";'

function tablePlatform(definition: () => Response = () => json(KIDS)) {
  const platform = fakePlatform()
  const base = platform.fetch
  const patches: unknown[] = []
  vi.stubGlobal('fetch', async (input: Request) => {
    const path = new URL(input.url, 'http://localhost').pathname
    if (path === `/platform/projects/${REF}/table-editor/tables/kids` && input.method === 'GET') return definition()
    if (path === `/platform/projects/${REF}/table-editor/references`) return json(REFERENCES)
    if (path === `/platform/projects/${REF}/table-editor/tables/kids` && input.method === 'PATCH') {
      const body = (await input.clone().json()) as { run: boolean }
      patches.push(body)
      return json({ sql: SQL, ran: body.run })
    }
    return base(input)
  })
  return { patches }
}

afterEach(() => vi.unstubAllGlobals())

describe('Table Editor: change a table', () => {
  it('starts from the table as it is, picks a foreign key among what the database has, and runs the reviewed SQL', async () => {
    const { patches } = tablePlatform()
    const { location } = renderApp(`/project/${REF}/editor/table/kids/edit`)
    const form = await screen.findByRole('form', { name: 'Table kids' }, { timeout: 15_000 })
    expect(screen.getByRole('heading', { level: 1, name: 'Edit table kids' })).toBeInTheDocument()
    expect(within(form).getByLabelText('Column 3 name')).toHaveValue('note')

    const user = userEvent.setup()
    await user.click(within(form).getByRole('button', { name: 'Remove column 3' }))
    await user.click(within(form).getByRole('button', { name: 'Add foreign key' }))
    await user.selectOptions(within(form).getAllByRole('combobox', { name: 'Column' })[0], 'parent')
    const schema = within(form).getByRole('combobox', { name: 'Foreign key 1 referenced schema' })
    expect(within(schema).getAllByRole('option').map((o) => o.textContent)).toEqual(['auth', 'public', "ref 'schema"])
    await user.selectOptions(schema, "ref 'schema")
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Foreign key 1 referenced table' }), 'pärents')
    const column = within(form).getByRole('combobox', { name: 'Foreign key 1 referenced column' })
    expect(within(column).getAllByRole('option').map((o) => o.textContent)).toEqual(['Choose a column', 'code', 'tag'])
    await user.selectOptions(column, 'tag')

    await user.click(within(form).getByRole('button', { name: 'Review SQL' }))
    const review = await screen.findByRole('region', { name: 'SQL to run' })
    expect(review).toHaveTextContent(SQL)
    await user.click(within(review).getByRole('button', { name: 'Run' }))
    await waitFor(() => expect(location.history?.at(-1)).toBe(`/project/${REF}/editor/table/kids`))

    const expected = {
      ...KIDS,
      columns: KIDS.columns.slice(0, 2),
      foreign_keys: [{ columns: ['parent'], referenced_schema: "ref 'schema", referenced_table: 'pärents', referenced_columns: ['tag'] }],
    }
    expect(patches).toEqual([
      { definition: expected, run: false },
      { definition: expected, run: true },
    ])
  }, 20_000)

  it('a table that cannot be read says why, and reads it again on Try again', async () => {
    let missing = true
    tablePlatform(() => (missing ? json({ message: "No table named 'kids' in schema public" }, 404) : json(KIDS)))
    renderApp(`/project/${REF}/editor/table/kids/edit`)
    expect(await screen.findByRole('alert', {}, { timeout: 15_000 })).toHaveTextContent("No table named 'kids' in schema public")
    missing = false
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('form', { name: 'Table kids' })).toBeInTheDocument()
  }, 20_000)
})
