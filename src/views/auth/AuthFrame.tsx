import type { ReactNode } from 'react'
import { Field, fieldAria } from '../shell/Field'
import { Logo } from '../shell/Logo'
import { inputClass } from '../shell/ui'

/** The signed-out pages' frame: the logo, the page's title and subtitle, then its form and the link to the other page. */
export function AuthFrame({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-neutral-50 px-4 dark:bg-neutral-950">
      <div className="w-full max-w-sm">
        <div className="mb-8 flex items-center gap-2">
          <Logo className="h-7 w-7" />
          <span className="text-lg font-semibold tracking-tight">Supabase</span>
        </div>
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        <p className="mt-1 text-sm text-neutral-500 dark:text-neutral-400">{subtitle}</p>
        {children}
      </div>
    </main>
  )
}

/** An e-mail or password field of these forms: checked on submit, so its error is announced. */
export function CredentialField({
  id,
  name,
  label,
  type,
  autoComplete,
  value,
  onChange,
  error,
  hint,
}: {
  id: string
  name: string
  label: string
  type: 'email' | 'password'
  autoComplete: string
  value: string
  onChange: (value: string) => void
  error?: string
  hint?: string
}) {
  return (
    <Field id={id} label={label} hint={hint} error={error} announce>
      <input
        {...fieldAria(id, { error, hint: hint !== undefined, announce: true })}
        name={name}
        type={type}
        autoComplete={autoComplete}
        className={inputClass}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  )
}
