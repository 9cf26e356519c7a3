import { useSelector } from '@xstate/react'
import { useState, type FormEvent } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectSignUpView, type signUpMachine } from '../../../machines/signUp.machine'
import { MIN_PASSWORD_LENGTH, SignUpBody } from '../../contracts/members'
import { Logo } from '../shell/Logo'
import { Button, TextLink, inputClass, InlineError } from '../shell/ui'
import { useDocumentTitle } from '../shell/useDocumentTitle'
import { href } from '../../href'

export type SignUpActorRef = ActorRefFrom<typeof signUpMachine>

type Field = 'email' | 'password'

/** /sign-up. The typed e-mail and password are the form's own values; the attempt and its failure are the machine's. */
export function SignUpPage({ signUp }: { signUp: SignUpActorRef }) {
  useDocumentTitle('Sign up')
  const view = useSelector(signUp, selectSignUpView)
  const canSubmit = useSelector(signUp, (snapshot) => snapshot.can({ type: 'signUp.submit', email: '', password: '' }))
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({})

  function submit(event: FormEvent) {
    event.preventDefault()
    const parsed = SignUpBody.safeParse({ email, password })
    if (!parsed.success) {
      const errors: Partial<Record<Field, string>> = {}
      for (const issue of parsed.error.issues) errors[issue.path[0] as Field] ??= issue.message
      setFieldErrors(errors)
      return
    }
    setFieldErrors({})
    signUp.send({ type: 'signUp.submit', ...parsed.data })
  }

  const field = (name: Field, label: string, input: { type: string; autoComplete: string; value: string; set: (v: string) => void }, hint?: string) => (
    <div className="space-y-1.5">
      <label htmlFor={`sign-up-${name}`} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={`sign-up-${name}`}
        name={name}
        type={input.type}
        autoComplete={input.autoComplete}
        className={inputClass}
        value={input.value}
        onChange={(event) => input.set(event.target.value)}
        aria-invalid={fieldErrors[name] ? true : undefined}
        aria-describedby={fieldErrors[name] ? `sign-up-${name}-error` : hint ? `sign-up-${name}-hint` : undefined}
      />
      {fieldErrors[name] ? (
        <p id={`sign-up-${name}-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
          {fieldErrors[name]}
        </p>
      ) : hint ? (
        <p id={`sign-up-${name}-hint`} className="text-xs text-neutral-500 dark:text-neutral-400">
          {hint}
        </p>
      ) : null}
    </div>
  )

  return (
    <main className="flex min-h-screen items-center justify-center bg-neutral-50 px-4 dark:bg-neutral-950">
      <div className="w-full max-w-sm">
        <div className="mb-8 flex items-center gap-2">
          <Logo className="h-7 w-7" />
          <span className="text-lg font-semibold tracking-tight">Supabase</span>
        </div>
        <h1 className="text-2xl font-semibold tracking-tight">Get started</h1>
        <p className="mt-1 text-sm text-neutral-500 dark:text-neutral-400">Create a new account</p>
        <form noValidate onSubmit={submit} className="mt-6 space-y-4" aria-label="Sign up">
          {field('email', 'Email', { type: 'email', autoComplete: 'email', value: email, set: setEmail })}
          {field('password', 'Password', { type: 'password', autoComplete: 'new-password', value: password, set: setPassword }, `At least ${MIN_PASSWORD_LENGTH} characters`)}
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
      </div>
    </main>
  )
}
