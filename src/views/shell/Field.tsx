import type { ReactNode } from 'react'
import { cx } from './ui'

/**
 * One form field: its label, its control, a hint and an error under it. The control is the caller's (an input, a
 * select, a textarea, with its own value and event); `fieldAria` gives it the id, and the invalid state and the
 * description that point at the hint or the error shown.
 *
 * An error found when the form is submitted is announced (`announce`: role alert), as it appears on its own; an
 * error shown while the person types stays quiet and small under the hint, so it does not interrupt the typing.
 */
export function Field({
  id,
  label,
  hint,
  error,
  announce = false,
  className,
  status,
  children,
}: {
  id: string
  label: ReactNode
  hint?: ReactNode
  error?: string | null
  announce?: boolean
  className?: string
  /** What a check of the value says (checking, found), after the hint and the error. */
  status?: ReactNode
  children: ReactNode
}) {
  return (
    <div className={cx('space-y-1.5', className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children}
      {announce ? (
        error ? (
          <p id={`${id}-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        ) : hint ? (
          <p id={`${id}-hint`} className="text-xs text-neutral-500 dark:text-neutral-400">
            {hint}
          </p>
        ) : null
      ) : (
        <>
          {hint ? (
            <p id={`${id}-hint`} className="text-xs text-neutral-500 dark:text-neutral-400">
              {hint}
            </p>
          ) : null}
          {error ? (
            <p id={`${id}-error`} className="text-xs text-red-600 dark:text-red-400">
              {error}
            </p>
          ) : null}
        </>
      )}
      {status}
    </div>
  )
}

/**
 * The props of the field's control: its id, whether it is invalid, and its description (the hint and the error `Field`
 * shows under it; with `announce`, the one of the two it shows).
 */
export function fieldAria(id: string, { error, hint = false, announce = false }: { error?: string | null; hint?: boolean; announce?: boolean }) {
  const shown = announce ? [error ? 'error' : hint ? 'hint' : null] : [hint ? 'hint' : null, error ? 'error' : null]
  const describedBy = shown.filter((part) => part !== null).map((part) => `${id}-${part}`).join(' ')
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy === '' ? undefined : describedBy,
  } as const
}
