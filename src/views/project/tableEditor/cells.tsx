/**
 * The grid's typed cell editors: text, number, boolean, date/time, JSON and enum, chosen by the column's type. What
 * the person typed is turned into the JSON value sent (a number, a boolean, parsed JSON, or text Postgres reads for
 * the type); a value that does not parse is said at once, before anything is sent.
 */
import { useState, type KeyboardEvent } from 'react'
import type { GridColumn } from '../../../contracts/tableEditor'
import { inputClass } from '../../shell/ui'

export type EditorKind = 'text' | 'number' | 'boolean' | 'date' | 'datetime' | 'time' | 'json' | 'enum'

const NUMBER = /^(smallint|integer|bigint|real|double precision|numeric|decimal)/

export function editorKindOf(column: GridColumn): EditorKind {
  const type = column.type
  if (column.enums.length > 0 && !type.endsWith('[]')) return 'enum'
  if (type === 'boolean') return 'boolean'
  if (NUMBER.test(type) && !type.endsWith('[]')) return 'number'
  if (type === 'date') return 'date'
  if (type.startsWith('timestamp')) return 'datetime'
  if (type.startsWith('time')) return 'time'
  if (type === 'json' || type === 'jsonb' || type.endsWith('[]')) return 'json'
  return 'text'
}

/** Characters of a value the grid shows in a cell (and names it by): a cell may hold megabytes. */
export const CELL_PREVIEW_CHARS = 500

/** A cell as the grid shows it: its text, cut after CELL_PREVIEW_CHARS with its full length said. */
export function cellPreview(value: unknown): string {
  const text = cellText(value)
  return text.length > CELL_PREVIEW_CHARS ? `${text.slice(0, CELL_PREVIEW_CHARS)}… (${text.length.toLocaleString('en-US')} characters)` : text
}

/** A cell as text: null as NULL, objects and arrays as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/** The JSON value of what was typed, for the column's type; throws with a message when it does not parse. */
export function parseCell(column: GridColumn, raw: string): unknown {
  const kind = editorKindOf(column)
  if (raw === '' && column.is_nullable) return null
  if (kind === 'number') {
    // Kept as text when a JavaScript number would lose digits (bigint past 2^53, numeric): Postgres reads it.
    if (!/^-?\d+(\.\d+)?(e-?\d+)?$/i.test(raw.trim())) throw new Error(`${column.name}: '${raw}' is not a number`)
    const n = Number(raw)
    return Number.isSafeInteger(n) || (!Number.isInteger(n) && String(n) === raw.trim()) ? n : raw.trim()
  }
  if (kind === 'boolean') {
    if (raw === 'true' || raw === 'false') return raw === 'true'
    throw new Error(`${column.name}: choose true or false`)
  }
  if (kind === 'json') {
    try {
      return JSON.parse(raw) as unknown
    } catch {
      throw new Error(`${column.name}: not valid JSON`)
    }
  }
  if (kind === 'enum' && !column.enums.includes(raw)) throw new Error(`${column.name}: one of ${column.enums.join(', ')}`)
  return raw
}

const toInput = (kind: EditorKind, value: unknown) => {
  if (value === null || value === undefined) return ''
  if (kind === 'json') return JSON.stringify(value)
  if (kind === 'datetime') return String(value).slice(0, 19)
  return String(value)
}

export function CellEditor({ column, value, onSave, onCancel }: { column: GridColumn; value: unknown; onSave: (value: unknown) => void; onCancel: () => void }) {
  const kind = editorKindOf(column)
  const [text, setText] = useState(toInput(kind, value))
  const [error, setError] = useState<string | null>(null)
  const save = () => {
    try {
      const parsed = kind === 'datetime' && text !== '' && !/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : parseCell(column, text)
      onSave(parsed)
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    }
  }
  const keys = (e: KeyboardEvent) => {
    e.stopPropagation()
    if (e.key === 'Enter' && kind !== 'json') save()
    if (e.key === 'Enter' && kind === 'json' && (e.ctrlKey || e.metaKey)) save()
    if (e.key === 'Escape') onCancel()
  }
  const label = `Edit ${column.name}`
  const common = { 'aria-label': label, 'aria-invalid': error !== null, className: `${inputClass} h-8 py-0 text-xs`, onKeyDown: keys, autoFocus: true }
  return (
    <div className="flex w-full items-center gap-1">
      {kind === 'boolean' ? (
        <select {...common} value={text} onChange={(e) => setText(e.target.value)} onBlur={save}>
          {column.is_nullable ? <option value="">NULL</option> : null}
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      ) : kind === 'enum' ? (
        <select {...common} value={text} onChange={(e) => setText(e.target.value)} onBlur={save}>
          {column.is_nullable ? <option value="">NULL</option> : null}
          {column.enums.map((label) => (
            <option key={label}>{label}</option>
          ))}
        </select>
      ) : kind === 'json' || text.length > CELL_PREVIEW_CHARS ? (
        // JSON, or text too long for one line (megabytes, even): a text area, which holds it whole.
        <textarea {...common} value={text} onChange={(e) => setText(e.target.value)} onBlur={save} />
      ) : (
        <input
          {...common}
          type={kind === 'number' ? 'text' : kind === 'date' ? 'date' : kind === 'datetime' ? 'datetime-local' : kind === 'time' ? 'time' : 'text'}
          inputMode={kind === 'number' ? 'decimal' : undefined}
          step={kind === 'datetime' || kind === 'time' ? 1 : undefined}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onBlur={save}
        />
      )}
      {error ? (
        <span role="alert" className="text-xs text-red-700 dark:text-red-400">
          {error}
        </span>
      ) : null}
    </div>
  )
}
