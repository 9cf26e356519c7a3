import { useActorRef } from '@xstate/react'
import { Suspense, useState } from 'react'
import { SignUpPage } from '../views/auth/SignUpPage'
import { useShell } from '../views/shell/contexts'
import { useLoaded } from '../views/shell/lazy'
import { useAppLogic } from '../views/shell/logic'
import { Loading } from '../views/shell/ui'
import { inspectOption } from './inspector'

/**
 * /sign-up while signed out, loaded with its page in one chunk (App starts its machine's load beside it); a new
 * account's session goes to the session machine.
 */
export default function SignUpScreen() {
  return (
    <Suspense fallback={<Loading label="Loading page…" />}>
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
