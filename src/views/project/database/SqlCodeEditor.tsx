/**
 * The SQL Editor's text: CodeMirror 6 with the PostgreSQL dialect, loaded with this page only. It completes keywords
 * and the project's schemas, tables, columns and functions (the machine's catalog), and Ctrl/Cmd+Enter asks to run
 * the selection or the statement under the cursor. The text is the machine's: every change is sent as an event, and a
 * text changed by the machine (format, an opened snippet) is put back into the editor.
 */
import { autocompletion, closeBrackets, completeFromList, completionKeymap } from '@codemirror/autocomplete'
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands'
import { PostgreSQL, sql, type SQLNamespace } from '@codemirror/lang-sql'
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language'
import { tags } from '@lezer/highlight'
import { Annotation, Compartment, EditorState, Prec } from '@codemirror/state'
import { EditorView, keymap, lineNumbers, placeholder } from '@codemirror/view'
import { useEffect, useRef } from 'react'
import { statementAt, type SqlCatalog } from '../../../../machines/sqlEditor.machine'

/**
 * The library's default colours with the two that fail WCAG AA contrast on white darkened (strings' #e40 at 3.8:1,
 * invalid's #f00 at 4.0:1); every colour here is at least 4.5:1 on white.
 */
const highlightStyle = HighlightStyle.define([
  { tag: tags.keyword, color: '#708' },
  { tag: [tags.atom, tags.bool, tags.url, tags.contentSeparator, tags.labelName], color: '#219' },
  { tag: [tags.literal, tags.inserted], color: '#164' },
  { tag: [tags.string, tags.deleted], color: '#a11' },
  { tag: [tags.regexp, tags.escape, tags.special(tags.string)], color: '#a3300b' },
  { tag: tags.definition(tags.variableName), color: '#00f' },
  { tag: tags.local(tags.variableName), color: '#30a' },
  { tag: [tags.typeName, tags.namespace], color: '#07613f' },
  { tag: tags.className, color: '#167' },
  { tag: [tags.special(tags.variableName), tags.macroName], color: '#256' },
  { tag: tags.definition(tags.propertyName), color: '#00c' },
  { tag: tags.comment, color: '#940' },
  { tag: tags.invalid, color: '#c00' },
  { tag: tags.strong, fontWeight: 'bold' },
  { tag: tags.emphasis, fontStyle: 'italic' },
])

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

/** Marks the editor's own copy of a text the machine changed, so it is not sent back as a change. */
const fromMachine = Annotation.define<boolean>()

const theme = EditorView.theme({
  '&': { fontSize: '13px', minHeight: '12rem', maxHeight: '28rem' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', overflow: 'auto' },
  '.cm-content': { minHeight: '12rem' },
  '.cm-gutters': { color: '#525252', backgroundColor: 'transparent', border: 'none' },
  // CodeMirror's own placeholder grey (#888, 3.5:1 on white) fails AA contrast for text this size.
  '.cm-placeholder': { color: '#525252' },
})

interface Props {
  /** Set to the editor while it is mounted (the page's Run button reads its selection). */
  editorRef: { current: EditorView | null }
  value: string
  catalog: SqlCatalog | null
  onChange: (text: string) => void
  onRun: (text: string) => void
}

export function SqlCodeEditor({ editorRef, value, catalog, onChange, onRun }: Props) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | null>(null)
  const language = useRef(new Compartment())
  // The latest callbacks, for the editor's listeners made once.
  const handlers = useRef({ onChange, onRun })
  handlers.current = { onChange, onRun }

  useEffect(() => {
    if (!host.current) return
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          closeBrackets(),
          autocompletion({ activateOnTyping: true }),
          syntaxHighlighting(highlightStyle, { fallback: true }),
          language.current.of(languageOf(catalog)),
          placeholder('select * from your_table limit 10;'),
          Prec.highest(keymap.of([{ key: 'Mod-Enter', preventDefault: true, run: (v) => (handlers.current.onRun(textToRun(v)), true) }])),
          keymap.of([...completionKeymap, ...defaultKeymap, ...historyKeymap]),
          EditorView.lineWrapping,
          // The editor adds its styles in a style element: the served page's Content-Security-Policy lets it in by
          // the document's nonce (none in development, which has no policy).
          EditorView.cspNonce.of(document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content') ?? ''),
          EditorView.contentAttributes.of({ 'aria-label': 'SQL query', 'aria-keyshortcuts': 'Control+Enter Meta+Enter' }),
          // Typed text with non-breaking spaces (what a browser inserts in an editable element whose white-space
          // style did not apply) goes in with plain spaces: Postgres would read them as part of a name.
          EditorView.inputHandler.of((view, from, to, text) => {
            if (!text.includes('\u00a0')) return false
            const insert = text.replace(/\u00a0/g, ' ')
            view.dispatch({ changes: { from, to, insert }, selection: { anchor: from + insert.length }, userEvent: 'input.type' })
            return true
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged && !update.transactions.some((t) => t.annotation(fromMachine))) {
              handlers.current.onChange(update.state.doc.toString())
            }
          }),
          theme,
        ],
      }),
    })
    view.current = editor
    editorRef.current = editor
    return () => {
      editor.destroy()
      view.current = null
      editorRef.current = null
    }
    // The editor is made once; value and catalog changes are dispatched below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  useEffect(() => {
    const editor = view.current
    if (!editor) return
    const current = editor.state.doc.toString()
    if (current !== value) {
      editor.dispatch({ changes: { from: 0, to: current.length, insert: value }, annotations: fromMachine.of(true) })
    }
  }, [value])

  useEffect(() => {
    view.current?.dispatch({ effects: language.current.reconfigure(languageOf(catalog)) })
  }, [catalog])

  return (
    <div
      ref={host}
      className="overflow-hidden rounded-md border border-neutral-300 bg-white text-neutral-900 focus-within:border-emerald-600 focus-within:ring-2 focus-within:ring-emerald-600/30 dark:border-neutral-700 dark:bg-neutral-950 dark:text-neutral-100"
    />
  )
}

/** The selection of the editor, or the whole text when nothing is selected (what the Run button runs). */
export function selectionOr(editor: EditorView | null, whole: string): string {
  if (!editor) return whole
  const { from, to } = editor.state.selection.main
  return from === to ? whole : editor.state.sliceDoc(from, to)
}
