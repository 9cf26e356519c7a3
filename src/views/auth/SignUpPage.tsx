import { useSelector } from '@xstate/react'
import { useState, type FormEvent } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectSignUpView, type signUpMachine } from '../../../machines/signUp.machine'
import { MIN_PASSWORD_LENGTH, SignUpBody } from '../../contracts/accounts'
import { AuthFrame, CredentialField } from './AuthFrame'
import { Button, TextLink, InlineError } from '../shell/ui'
import { useDocumentTitle } from '../shell/useDocumentTitle'
import { href } from '../../href'

export type SignUpActorRef = ActorRefFrom<typeof signUpMachine>

type FieldName = 'email' | 'password'

/** /sign-up. The typed e-mail and password are the form's own values; the attempt and its failure are the machine's. */
export function SignUpPage({ signUp }: { signUp: SignUpActorRef }) {
  useDocumentTitle('Sign up')
  const view = useSelector(signUp, selectSignUpView)
  const canSubmit = useSelector(signUp, (snapshot) => snapshot.can({ type: 'signUp.submit', email: '', password: '' }))
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<FieldName, string>>>({})

  function submit(event: FormEvent) {
    event.preventDefault()
    const parsed = SignUpBody.safeParse({ email, password })
    if (!parsed.success) {
      const errors: Partial<Record<FieldName, string>> = {}
      for (const issue of parsed.error.issues) errors[issue.path[0] as FieldName] ??= issue.message
      setFieldErrors(errors)
      return
    }
    setFieldErrors({})
    signUp.send({ type: 'signUp.submit', ...parsed.data })
  }

  return (
    <AuthFrame title="Get started" subtitle="Create a new account">
      <form noValidate onSubmit={submit} className="mt-6 space-y-4" aria-label="Sign up">
        <CredentialField id="sign-up-email" name="email" label="Email" type="email" autoComplete="email" value={email} onChange={setEmail} error={fieldErrors.email} />
        <CredentialField
          id="sign-up-password"
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          error={fieldErrors.password}
          hint={`At least ${MIN_PASSWORD_LENGTH} characters`}
        />
        {view.error ? (
          <InlineError>{view.error}</InlineError>
        ) : null}
        <Button type="submit" variant="primary" className="w-full py-2" disabled={!canSubmit}>
          {view.submitting || view.done ? 'Signing up…' : 'Sign up'}
        </Button>
      </form>
      <p className="mt-6 text-sm text-neutral-600 dark:text-neutral-400">
        Have an account?{' '}
        <TextLink href={href.signIn()}>Sign in</TextLink>
      </p>
    </AuthFrame>
  )
}
