import { useActorRef } from '@xstate/react'
import { Suspense, useState, type ComponentProps } from 'react'
import type { SignUpPage as SignUpPageView } from '../views/auth/SignUpPage'
import { useShell } from '../views/shell/contexts'
import { lazyComponent, useLoaded } from '../views/shell/lazy'
import { useAppLogic } from '../views/shell/logic'
import { Loading } from '../views/shell/ui'
import { inspectOption } from './inspector'

const pageLoading = <Loading label="Loading page…" />
const SignUpPage = lazyComponent<ComponentProps<typeof SignUpPageView>>(
  () => import('../views/auth/SignUpPage').then((m) => ({ default: m.SignUpPage })),
  pageLoading,
)

/** /sign-up while signed out: the page and its machine load on demand; a new account's session goes to the session machine. */
export function SignUpScreen() {
  void SignUpPage.preload()
  return (
    <Suspense fallback={pageLoading}>
      <SignUpMachine />
    </Suspense>
  )
}

function SignUpMachine() {
  const { session } = useShell()
  const loaded = useLoaded(useAppLogic().signUp)
  const [machine] = useState(() => loaded.provide({ actions: { signedUp: (_, params) => session.send({ type: 'session.changed', session: params.session }) } }))
  const signUp = useActorRef(machine, inspectOption())
  return <SignUpPage signUp={signUp} />
}
