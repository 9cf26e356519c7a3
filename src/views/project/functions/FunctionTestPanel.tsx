/** The Test panel of a function's page: the request as typed, and the function's answer with its timing. */
import { useSelector } from '@xstate/react'
import { useId, type FormEvent } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectFunctionTestView, type functionTestMachine } from '../../../../machines/functionTest.machine'
import { TEST_METHODS, type TestMethod, type TestRole } from '../../../contracts/functionRuntime'
import { Button, Card, ErrorPanel, InlineError, Loading, inputClass } from '../../shell/ui'

export type FunctionTestActorRef = ActorRefFrom<typeof functionTestMachine>

export function FunctionTestPanel({ actor }: { actor: FunctionTestActorRef }) {
  const view = useSelector(actor, selectFunctionTestView)
  const ids = { method: useId(), path: useId(), role: useId(), user: useId(), body: useId(), headers: useId() }
  return (
    <Card>
      <section aria-labelledby={ids.headers}>
        <h2 id={ids.headers} className="border-b border-neutral-200 px-5 py-3 font-semibold dark:border-neutral-800">Test</h2>
        {view.phase === 'loading' ? <Loading label="Loading the project's keys…" /> : null}
        {view.phase === 'failed' ? <ErrorPanel title="The Test panel could not load" message={view.error} onRetry={() => actor.send({ type: 'test.retry' })} /> : null}
        {view.phase === 'ready' ? (
          <form
            className="space-y-4 p-5"
            onSubmit={(e: FormEvent) => {
              e.preventDefault()
              actor.send({ type: 'test.send' })
            }}
          >
            <div className="grid gap-4 sm:grid-cols-[8rem_1fr_12rem]">
              <div className="space-y-1">
                <label htmlFor={ids.method} className="block text-sm font-medium">Method</label>
                <select id={ids.method} className={inputClass} value={view.draft.method} onChange={(e) => actor.send({ type: 'test.edit', draft: { method: e.target.value as TestMethod } })}>
                  {TEST_METHODS.map((method) => (
                    <option key={method}>{method}</option>
                  ))}
                </select>
              </div>
              <div className="space-y-1">
                <label htmlFor={ids.path} className="block text-sm font-medium">Path after the function</label>
                <input id={ids.path} className={`${inputClass} font-mono`} value={view.draft.path} placeholder="/items?limit=5" onChange={(e) => actor.send({ type: 'test.edit', draft: { path: e.target.value } })} />
              </div>
              <div className="space-y-1">
                <label htmlFor={ids.role} className="block text-sm font-medium">Role</label>
                <select id={ids.role} className={inputClass} value={view.draft.role} onChange={(e) => actor.send({ type: 'test.edit', draft: { role: e.target.value as TestRole } })}>
                  <option value="anon">anon</option>
                  <option value="service_role" disabled={!view.serviceAllowed}>
                    {view.serviceAllowed ? 'service_role' : 'service_role (not allowed to you)'}
                  </option>
                  <option value="user" disabled={!view.serviceAllowed}>
                    {view.serviceAllowed ? 'A user' : 'A user (not allowed to you)'}
                  </option>
                </select>
              </div>
            </div>
            {view.draft.role === 'user' ? (
              <div className="space-y-1">
                <label htmlFor={ids.user} className="block text-sm font-medium">User</label>
                <select id={ids.user} className={inputClass} value={view.draft.userId ?? ''} onChange={(e) => actor.send({ type: 'test.edit', draft: { userId: e.target.value || null } })}>
                  <option value="">Choose a user</option>
                  {view.users.map((u) => (
                    <option key={u.id} value={u.id}>
                      {u.label}
                    </option>
                  ))}
                </select>
                <p className="text-xs text-neutral-600 dark:text-neutral-300">
                  {view.users.length === 0 ? 'The project has no users yet: add one under Authentication.' : "The request carries this user's access token, as a signed-in client's would."}
                </p>
              </div>
            ) : null}
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium">Headers</legend>
              {view.draft.headers.map(([name, value], index) => (
                <div key={index} className="flex gap-2">
                  <input aria-label={`Header ${index + 1} name`} className={`${inputClass} font-mono`} value={name} onChange={(e) => actor.send({ type: 'test.header.change', index, name: e.target.value })} />
                  <input aria-label={`Header ${index + 1} value`} className={`${inputClass} font-mono`} value={value} onChange={(e) => actor.send({ type: 'test.header.change', index, value: e.target.value })} />
                  <Button onClick={() => actor.send({ type: 'test.header.remove', index })} aria-label={`Remove header ${index + 1}`}>
                    Remove
                  </Button>
                </div>
              ))}
              <Button onClick={() => actor.send({ type: 'test.header.add' })}>Add header</Button>
            </fieldset>
            <div className="space-y-1">
              <label htmlFor={ids.body} className="block text-sm font-medium">Request body</label>
              <textarea id={ids.body} rows={5} spellCheck={false} className={`${inputClass} font-mono text-xs`} value={view.draft.body} disabled={view.draft.method === 'GET'} onChange={(e) => actor.send({ type: 'test.edit', draft: { body: e.target.value } })} />
            </div>
            {view.problem ? <p className="text-sm text-red-700 dark:text-red-300">{view.problem}</p> : null}
            <Button type="submit" variant="primary" disabled={view.sending || view.problem !== null}>
              {view.sending ? 'Sending…' : 'Send request'}
            </Button>
            {view.error ? <InlineError>{view.error}</InlineError> : null}
            {view.result ? (
              <section aria-label="Response" className="space-y-2 rounded-md border border-neutral-200 p-4 dark:border-neutral-800">
                <p className="text-sm font-semibold" role="status">{`${[view.result.status, view.result.statusText].filter((part) => part !== '').join(' ')} · ${view.result.duration_ms} ms`}</p>
                <details>
                  <summary className="cursor-pointer text-sm">{`Headers (${view.result.headers.length})`}</summary>
                  <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 font-mono text-xs">
                    {view.result.headers.map(([name, value]) => (
                      <div key={name} className="contents">
                        <dt className="text-neutral-600 dark:text-neutral-300">{name}</dt>
                        <dd className="break-all">{value}</dd>
                      </div>
                    ))}
                  </dl>
                </details>
                <pre aria-label="Response body" className="max-h-80 overflow-auto rounded bg-neutral-50 p-3 font-mono text-xs whitespace-pre-wrap dark:bg-neutral-950">{view.result.body}</pre>
              </section>
            ) : null}
          </form>
        ) : null}
      </section>
    </Card>
  )
}
