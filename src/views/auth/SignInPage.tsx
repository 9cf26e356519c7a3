import { useSelector } from '@xstate/react'
import { useState, type FormEvent } from 'react'
import { selectSignInView } from '../../../machines/session.machine'
import { SignInBody } from '../../contracts/session'
import type { SessionActorRef } from '../shell/contexts'
import { AuthFrame, CredentialField } from './AuthFrame'
import { Button, TextLink, InlineError } from '../shell/ui'
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
    <AuthFrame title="Welcome back" subtitle="Sign in to your account">
      <form noValidate onSubmit={submit} className="mt-6 space-y-4" aria-label="Sign in">
        <CredentialField id="sign-in-email" name="email" label="Email" type="email" autoComplete="email" value={email} onChange={setEmail} error={fieldErrors.email} />
        <CredentialField
          id="sign-in-password"
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          error={fieldErrors.password}
        />
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
    </AuthFrame>
  )
}
