/** Rows as a grid: one column per result column, its Postgres type under its name; values as Postgres prints them. */
import type { QueryColumn } from '../../../contracts/database'

/** A value as text: NULL for null, JSON for objects and arrays (json, jsonb, arrays), the rest as is. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  if (typeof value === 'string') return value
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

export function ResultGrid({ label, columns, rows }: { label: string; columns: QueryColumn[]; rows: Array<Record<string, unknown>> }) {
  return (
    // Focusable, so a keyboard can scroll a grid wider or taller than its box.
    <div tabIndex={0} className="max-h-[32rem] overflow-auto rounded-lg border border-neutral-200 focus-visible:outline-2 focus-visible:outline-emerald-600 dark:border-neutral-800">
      <table aria-label={label} className="min-w-full border-collapse font-mono text-xs">
        <thead className="sticky top-0 bg-neutral-100 dark:bg-neutral-900">
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col" className="border-b border-neutral-200 px-3 py-2 text-left font-semibold whitespace-nowrap dark:border-neutral-800">
                {column.name} <span className="font-normal text-neutral-600 dark:text-neutral-400">{column.type}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, rowIndex) => (
            <tr key={rowIndex} className="odd:bg-white even:bg-neutral-50 dark:odd:bg-neutral-950 dark:even:bg-neutral-900/60">
              {columns.map((column, index) => {
                const value = row[column.name]
                return (
                  <td
                    key={index}
                    className={`max-w-xs truncate border-b border-neutral-100 px-3 py-1.5 whitespace-nowrap dark:border-neutral-800 ${value === null || value === undefined ? 'text-neutral-500 italic dark:text-neutral-400' : ''}`}
                  >
                    {cellText(value)}
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
