/**
 * The project home's 'Connect' button and dialog: the connection strings of the project's Postgres port for a method
 * and a client, with a Copy button. Renders the connect machine's state and sends its events.
 */
import { useActorRef, useSelector } from '@xstate/react'
import { Suspense, useEffect } from 'react'
import type { ActorRefFrom } from 'xstate'
import {
  CLIENT_LABELS,
  CONNECT_CLIENTS,
  CONNECT_METHODS,
  METHOD_LABELS,
  selectConnectView,
  type ConnectClient,
  type ConnectMethod,
  type connectMachine,
} from '../../../../machines/connect.machine'
import { useLoaded } from '../../shell/lazy'
import { useAppLogic } from '../../shell/logic'
import { Modal } from '../../shell/Modal'
import { Field } from '../../shell/Field'
import { Button, ErrorPanel, Loading, inputClass } from '../../shell/ui'

export type ConnectActorRef = ActorRefFrom<typeof connectMachine>

/** The button, once the dialog's machine has loaded (a disabled one until then); ConnectButton.tsx loads this module. */
export default function ConnectButton({ projectRef, openAtOnce = false }: { projectRef: string; openAtOnce?: boolean }) {
  return (
    <Suspense fallback={<Button disabled>Connect</Button>}>
      <ConnectHost key={projectRef} projectRef={projectRef} openAtOnce={openAtOnce} />
    </Suspense>
  )
}

function ConnectHost({ projectRef, openAtOnce }: { projectRef: string; openAtOnce: boolean }) {
  const actor = useActorRef(useLoaded(useAppLogic().connect), { input: { ref: projectRef } })
  // Loaded by a click on the stand-in button (ConnectButton.tsx): that click opens the dialog. Sent once the mount
  // has settled: under StrictMode an effect runs, is cleaned up and runs again at once, and the actor is restarted in
  // between, which would read the settings a second time for one opening.
  useEffect(() => {
    if (!openAtOnce) return
    let mounted = true
    void Promise.resolve().then(() => {
      if (mounted) actor.send({ type: 'connect.open' })
    })
    return () => {
      mounted = false
    }
  }, [actor, openAtOnce])
  return <Connect actor={actor} />
}

export function Connect({ actor }: { actor: ConnectActorRef }) {
  const view = useSelector(actor, selectConnectView)
  return (
    <>
      <Button variant="primary" onClick={() => actor.send({ type: 'connect.open' })}>
        Connect
      </Button>
      <Modal open={view.phase !== 'closed'} onClose={() => actor.send({ type: 'connect.close' })} title="Connect to your project" size="lg">
        <div className="space-y-4">
          {view.phase === 'loading' ? <Loading label="Retrieving connection settings…" /> : null}
          {view.phase === 'failed' ? (
            <ErrorPanel title="Failed to retrieve the connection settings" message={view.error} onRetry={() => actor.send({ type: 'connect.retry' })} />
          ) : null}
          {view.phase === 'ready' ? (
            <>
              <div className="grid gap-4 sm:grid-cols-2">
                <Field id="connect-method" label="Method">
                  <select
                    id="connect-method"
                    className={inputClass}
                    value={view.method}
                    onChange={(event) => actor.send({ type: 'connect.method', method: event.target.value as ConnectMethod })}
                  >
                    {CONNECT_METHODS.map((method) => (
                      <option key={method} value={method}>
                        {METHOD_LABELS[method]}
                      </option>
                    ))}
                  </select>
                </Field>
                <Field id="connect-client" label="Type">
                  <select
                    id="connect-client"
                    className={inputClass}
                    value={view.client}
                    onChange={(event) => actor.send({ type: 'connect.client', client: event.target.value as ConnectClient })}
                  >
                    {CONNECT_CLIENTS.map((client) => (
                      <option key={client} value={client}>
                        {CLIENT_LABELS[client]}
                      </option>
                    ))}
                  </select>
                </Field>
              </div>
              <p className="text-sm text-neutral-600 dark:text-neutral-300">{view.note}</p>
              <pre
                aria-label="Connection string"
                tabIndex={0}
                className="overflow-x-auto rounded-md border border-neutral-200 bg-neutral-50 p-3 font-mono text-xs whitespace-pre-wrap break-all dark:border-neutral-800 dark:bg-neutral-900"
              >
                {view.snippet}
              </pre>
              <div className="flex items-center justify-between gap-3">
                <p className="text-sm text-neutral-600 dark:text-neutral-300">
                  Replace [YOUR-PASSWORD] with the database password (reset it in Settings › Database if you lost it).
                </p>
                <Button onClick={() => actor.send({ type: 'connect.copy' })}>{view.copyLabel}</Button>
              </div>
            </>
          ) : null}
        </div>
      </Modal>
    </>
  )
}
