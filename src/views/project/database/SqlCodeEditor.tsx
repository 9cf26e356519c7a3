/**
 * The SQL Editor's text: the dashboard's code editor (../../shell/CodeEditor) with the PostgreSQL dialect, loaded with
 * this page only. It completes keywords and the project's schemas, tables, columns and functions (the machine's
 * catalog), and Ctrl/Cmd+Enter asks to run the selection or the statement under the cursor.
 */
import { completeFromList } from '@codemirror/autocomplete'
import { PostgreSQL, sql, type SQLNamespace } from '@codemirror/lang-sql'
import type { EditorView, KeyBinding } from '@codemirror/view'
import { useMemo, useRef } from 'react'
import { statementAt, type SqlCatalog } from '../../../../machines/sqlEditor.machine'
import { CodeEditor } from '../../shell/CodeEditor'

/** What Run means at the cursor: the selection when there is one, else the statement the cursor is in. */
export function textToRun(view: EditorView): string {
  const doc = view.state.doc.toString()
  const { from, to, head } = view.state.selection.main
  if (from !== to) return view.state.sliceDoc(from, to)
  return statementAt(doc, head)
}

function languageOf(catalog: SqlCatalog | null) {
  const schema: SQLNamespace = {}
  for (const table of catalog?.completions.tables ?? []) {
    const inSchema = (schema[table.schema] ??= {}) as Record<string, SQLNamespace>
    inSchema[table.name] = table.columns.map((c) => ({ label: c.name, type: 'property', detail: c.type }))
  }
  for (const name of catalog?.completions.schemas ?? []) schema[name] ??= {}
  const functions = (catalog?.completions.functions ?? []).map((f) => ({
    label: f.name,
    type: 'function',
    detail: `${f.schema}.${f.name}(${f.args})${f.returns ? ` → ${f.returns}` : ''}`,
  }))
  return [
    sql({ dialect: PostgreSQL, schema, defaultSchema: 'public', upperCaseKeywords: false }),
    PostgreSQL.language.data.of({ autocomplete: completeFromList(functions) }),
  ]
}

interface Props {
  /** Set to the editor while it is mounted (the page's Run button reads its selection). */
  editorRef: { current: EditorView | null }
  value: string
  catalog: SqlCatalog | null
  onChange: (text: string) => void
  onRun: (text: string) => void
}

export function SqlCodeEditor({ editorRef, value, catalog, onChange, onRun }: Props) {
  const language = useMemo(() => languageOf(catalog), [catalog])
  // The latest Run, for the key binding the editor takes once.
  const run = useRef(onRun)
  run.current = onRun
  const keys = useMemo<KeyBinding[]>(() => [{ key: 'Mod-Enter', preventDefault: true, run: (v) => (run.current(textToRun(v)), true) }], [])
  return (
    <CodeEditor
      editorRef={editorRef}
      label="SQL query"
      value={value}
      onChange={onChange}
      language={language}
      placeholder="select * from your_table limit 10;"
      keys={keys}
      keyShortcuts="Control+Enter Meta+Enter"
    />
  )
}

/** The selection of the editor, or the whole text when nothing is selected (what the Run button runs). */
export function selectionOr(editor: EditorView | null, whole: string): string {
  if (!editor) return whole
  const { from, to } = editor.state.selection.main
  return from === to ? whole : editor.state.sliceDoc(from, to)
}
