import { useSelector } from '@xstate/react'
import { useState, type FormEvent } from 'react'
import { selectSignInView } from '../../../machines/session.machine'
import { SignInBody } from '../../contracts/auth'
import type { SessionActorRef } from '../shell/contexts'
import { Logo } from '../shell/Logo'
import { Field, fieldAria } from '../shell/Field'
import { Button, TextLink, inputClass, InlineError } from '../shell/ui'
import { useDocumentTitle } from '../shell/useDocumentTitle'

/** The typed e-mail and password are the form's own values; the attempt and its failure are the session's. */
export function SignInPage({ session }: { session: SessionActorRef }) {
  useDocumentTitle('Sign in')
  const view = useSelector(session, selectSignInView)
  const canSubmit = useSelector(session, (snapshot) => snapshot.can({ type: 'session.signIn', email: '', password: '' }))
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({})

  function submit(event: FormEvent) {
    event.preventDefault()
    const parsed = SignInBody.safeParse({ email, password })
    if (!parsed.success) {
      const errors: { email?: string; password?: string } = {}
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as 'email' | 'password'
        errors[field] ??= issue.message
      }
      setFieldErrors(errors)
      return
    }
    setFieldErrors({})
    session.send({ type: 'session.signIn', ...parsed.data })
  }

  return (
    <main className="flex min-h-screen items-center justify-center bg-neutral-50 px-4 dark:bg-neutral-950">
      <div className="w-full max-w-sm">
        <div className="mb-8 flex items-center gap-2">
          <Logo className="h-7 w-7" />
          <span className="text-lg font-semibold tracking-tight">Supabase</span>
        </div>
        <h1 className="text-2xl font-semibold tracking-tight">Welcome back</h1>
        <p className="mt-1 text-sm text-neutral-500 dark:text-neutral-400">Sign in to your account</p>
        <form noValidate onSubmit={submit} className="mt-6 space-y-4" aria-label="Sign in">
          <Field id="sign-in-email" label="Email" error={fieldErrors.email} announce>
            <input
              {...fieldAria('sign-in-email', { error: fieldErrors.email, announce: true })}
              name="email"
              type="email"
              autoComplete="email"
              className={inputClass}
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          </Field>
          <Field id="sign-in-password" label="Password" error={fieldErrors.password} announce>
            <input
              {...fieldAria('sign-in-password', { error: fieldErrors.password, announce: true })}
              name="password"
              type="password"
              autoComplete="current-password"
              className={inputClass}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </Field>
          {view.error ? (
            <InlineError>{view.error}</InlineError>
          ) : null}
          <Button type="submit" variant="primary" className="w-full py-2" disabled={!canSubmit}>
            {view.submitting ? 'Signing in…' : 'Sign in'}
          </Button>
        </form>
        <p className="mt-6 text-sm text-neutral-600 dark:text-neutral-400">
          Don't have an account? <TextLink href="/sign-up">Sign up</TextLink>
        </p>
      </div>
    </main>
  )
}
