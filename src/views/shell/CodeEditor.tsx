/**
 * The dashboard's code editor: CodeMirror 6 with line numbers, history, closing brackets, completion and the colours
 * below; each page gives it its language (the SQL Editor PostgreSQL with its catalog, 'Deploy a new function'
 * TypeScript). Only the pages that show it import it, so it loads with their chunks, never with the first load.
 * The text is the machine's: every change is sent as an event, and a text changed by the machine (a template chosen,
 * a snippet opened) is put back into the editor.
 */
import { autocompletion, closeBrackets, completionKeymap } from '@codemirror/autocomplete'
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands'
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language'
import { Annotation, Compartment, EditorState, Prec, type Extension } from '@codemirror/state'
import { EditorView, keymap, lineNumbers, placeholder as placeholderText, type KeyBinding } from '@codemirror/view'
import { tags } from '@lezer/highlight'
import { useEffect, useRef } from 'react'

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

const readOnlyOf = (readOnly: boolean) => [EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]

export interface CodeEditorProps {
  /** Set to the editor while it is mounted (a page's button may read its selection). */
  editorRef?: { current: EditorView | null }
  /** The editable text's accessible name: its own (`label`) or the element that shows it (`labelledBy`). */
  label?: string
  labelledBy?: string
  value: string
  onChange: (text: string) => void
  /** The language and what completes in it; given anew, it replaces the one in use. */
  language: Extension
  placeholder?: string
  readOnly?: boolean
  /** Key bindings ahead of the editor's own, taken when the editor is made (they read the page's latest state). */
  keys?: readonly KeyBinding[]
  /** What `keys` are, for assistive technology (aria-keyshortcuts). */
  keyShortcuts?: string
}

export function CodeEditor({ editorRef, label, labelledBy, value, onChange, language, placeholder, readOnly = false, keys = [], keyShortcuts }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | null>(null)
  const compartments = useRef({ language: new Compartment(), readOnly: new Compartment() })
  // The latest callback, for the editor's listener made once.
  const changed = useRef(onChange)
  changed.current = onChange

  useEffect(() => {
    if (!host.current) return
    const { language: languageSlot, readOnly: readOnlySlot } = compartments.current
    const named: Record<string, string> = labelledBy ? { 'aria-labelledby': labelledBy } : label ? { 'aria-label': label } : {}
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
          languageSlot.of(language),
          readOnlySlot.of(readOnlyOf(readOnly)),
          placeholder ? placeholderText(placeholder) : [],
          Prec.highest(keymap.of(keys)),
          keymap.of([...completionKeymap, ...defaultKeymap, ...historyKeymap]),
          EditorView.lineWrapping,
          // The editor adds its styles in a style element: the served page's Content-Security-Policy lets it in by
          // the document's nonce (none in development, which has no policy).
          EditorView.cspNonce.of(document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content') ?? ''),
          EditorView.contentAttributes.of({ ...named, ...(keyShortcuts ? { 'aria-keyshortcuts': keyShortcuts } : {}) }),
          // Typed text with non-breaking spaces (what a browser inserts in an editable element whose white-space
          // style did not apply) goes in with plain spaces: Postgres and Deno would read them as part of a name.
          EditorView.inputHandler.of((v, from, to, text) => {
            if (!text.includes('\u00a0')) return false
            const insert = text.replace(/\u00a0/g, ' ')
            v.dispatch({ changes: { from, to, insert }, selection: { anchor: from + insert.length }, userEvent: 'input.type' })
            return true
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged && !update.transactions.some((t) => t.annotation(fromMachine))) changed.current(update.state.doc.toString())
          }),
          theme,
        ],
      }),
    })
    view.current = editor
    if (editorRef) editorRef.current = editor
    return () => {
      editor.destroy()
      view.current = null
      if (editorRef) editorRef.current = null
    }
    // The editor is made once; value, language and readOnly changes are dispatched below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  useEffect(() => {
    const editor = view.current
    if (!editor) return
    const current = editor.state.doc.toString()
    if (current !== value) editor.dispatch({ changes: { from: 0, to: current.length, insert: value }, annotations: fromMachine.of(true) })
  }, [value])

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.language.reconfigure(language) })
  }, [language])

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.readOnly.reconfigure(readOnlyOf(readOnly)) })
  }, [readOnly])

  return (
    <div
      ref={host}
      className="overflow-hidden rounded-md border border-neutral-300 bg-white text-neutral-900 focus-within:border-emerald-600 focus-within:ring-2 focus-within:ring-emerald-600/30 dark:border-neutral-700 dark:bg-neutral-950 dark:text-neutral-100"
    />
  )
}
