/** Small presentational building blocks shared by the pages. */
import type { ButtonHTMLAttributes, ReactNode } from 'react'
import { Link } from 'wouter'

const cx = (...classes: Array<string | false | null | undefined>) => classes.filter(Boolean).join(' ')
export { cx }

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost'
const VARIANTS: Record<Variant, string> = {
  primary:
    'bg-primary text-white hover:bg-primary-hover focus-visible:outline-primary disabled:bg-primary/50',
  secondary:
    'border border-neutral-300 bg-white text-neutral-800 hover:bg-neutral-50 dark:border-neutral-700 dark:bg-neutral-800 dark:text-neutral-100 dark:hover:bg-neutral-700',
  danger: 'bg-red-600 text-white hover:bg-red-500 disabled:bg-red-600/50',
  ghost: 'text-neutral-600 hover:bg-neutral-100 hover:text-neutral-900 dark:text-neutral-300 dark:hover:bg-neutral-800 dark:hover:text-white',
}

/**
 * No colour transition: a button that turns enabled as its page's data arrives would otherwise pass through colours
 * with too little contrast for a moment, and a scan (or a person) catches it there.
 */
export function Button({ variant = 'secondary', className, ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant }) {
  return (
    <button
      type="button"
      {...props}
      className={cx(
        'inline-flex items-center justify-center gap-2 rounded-md px-3 py-1.5 text-sm font-medium shadow-xs focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60',
        VARIANTS[variant],
        className,
      )}
    />
  )
}

export function Card({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className={cx('rounded-lg border border-neutral-200 bg-white shadow-xs dark:border-neutral-800 dark:bg-neutral-900', className)}>
      {children}
    </div>
  )
}

export function PageHeading({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-neutral-900 dark:text-neutral-50">{title}</h1>
        {description ? <p className="mt-1 text-sm text-neutral-500 dark:text-neutral-400">{description}</p> : null}
      </div>
      {actions}
    </header>
  )
}

export function Loading({ label }: { label: string }) {
  return (
    <div role="status" aria-live="polite" className="flex items-center gap-3 p-8 text-sm text-neutral-500 dark:text-neutral-400">
      <span aria-hidden className="h-4 w-4 animate-spin rounded-full border-2 border-neutral-300 border-t-emerald-600" />
      {label}
    </div>
  )
}

export function ErrorPanel({ title, message, onRetry }: { title: string; message: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="m-2 max-w-xl space-y-3 rounded-lg border border-red-300 bg-red-50 p-5 dark:border-red-900 dark:bg-red-950/40">
      <h2 className="font-semibold text-red-800 dark:text-red-300">{title}</h2>
      <p className="text-sm text-red-700 dark:text-red-300">{message}</p>
      {onRetry ? (
        <Button onClick={onRetry} variant="secondary">
          Try again
        </Button>
      ) : null}
    </div>
  )
}

/** A form's or a dialog's failure, inline under what was typed (which stays). */
export function InlineError({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-700 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300">
      {children}
    </p>
  )
}

export function DataList({ rows }: { rows: Array<[label: string, value: ReactNode]> }) {
  return (
    <dl className="divide-y divide-neutral-200 dark:divide-neutral-800">
      {rows.map(([label, value]) => (
        <div key={label} className="grid grid-cols-3 gap-4 px-5 py-3 text-sm">
          <dt className="text-neutral-500 dark:text-neutral-400">{label}</dt>
          <dd className="col-span-2 break-all font-medium text-neutral-900 dark:text-neutral-100">{value}</dd>
        </div>
      ))}
    </dl>
  )
}

export function TextLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} className="font-medium text-emerald-700 underline-offset-4 hover:underline dark:text-emerald-400">
      {children}
    </Link>
  )
}

export const inputClass =
  'block w-full rounded-md border border-neutral-300 bg-white px-3 py-2 text-sm text-neutral-900 shadow-xs placeholder:text-neutral-400 focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30 dark:border-neutral-700 dark:bg-neutral-950 dark:text-neutral-100'
