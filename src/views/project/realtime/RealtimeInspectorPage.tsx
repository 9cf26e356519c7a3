import { useSelector } from '@xstate/react'
import type { FormEvent } from 'react'
import type { ActorRefFrom } from 'xstate'
import {
  MAX_MESSAGES,
  selectRealtimeInspectorView,
  type InspectorMessage,
  type InspectorRole,
  type realtimeInspectorMachine,
} from '../../../../machines/realtimeInspector.machine'
import { useAppLogic } from '../../shell/logic'
import { Button, Card, ErrorPanel, Loading, PageHeading, inputClass } from '../../shell/ui'
import { PAGE_CLASS, ProjectMachinePage } from '../ProjectMachinePage'

export type RealtimeInspectorActorRef = ActorRefFrom<typeof realtimeInspectorMachine>

const HEADING = {
  title: 'Realtime inspector',
  description: "Join a channel of the project and watch its broadcast, presence and database messages as they arrive.",
}

/** /project/{ref}/realtime/inspector */
export function RealtimeInspectorPage() {
  const logic = useAppLogic()
  return (
    <ProjectMachinePage
      machine={logic.realtimeInspector}
      heading={HEADING}
      loadingLabel="Loading the inspector…"
      input={(ref) => ({ ref })}
      render={(actor) => <RealtimeInspector actor={actor} />}
    />
  )
}

const formValue = (form: HTMLFormElement, name: string) => String(new FormData(form).get(name) ?? '')

export function RealtimeInspector({ actor }: { actor: RealtimeInspectorActorRef }) {
  const view = useSelector(actor, selectRealtimeInspectorView)

  const join = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = e.currentTarget
    actor.send({
      type: 'channel.join',
      channel: formValue(form, 'channel'),
      private: new FormData(form).get('private') === 'on',
      role: formValue(form, 'role') as InspectorRole,
    })
  }
  const send = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = e.currentTarget
    actor.send({ type: 'broadcast.send', event: formValue(form, 'event') || 'message', payload: formValue(form, 'payload') })
  }

  return (
    <div className={PAGE_CLASS}>
      <PageHeading {...HEADING} />
      {view.phase === 'idle' ? (
        <Card className="px-5 py-4">
          <form aria-label="Join a channel" onSubmit={join} className="flex flex-wrap items-end gap-4 text-sm">
            <label className="flex flex-col gap-1">
              Channel
              <input name="channel" required defaultValue="room-1" className={inputClass} />
            </label>
            <label className="flex flex-col gap-1">
              Join as
              <select name="role" defaultValue="anon" className={inputClass}>
                <option value="anon">anon key</option>
                <option value="service_role">service_role key</option>
              </select>
            </label>
            <label className="flex items-center gap-2">
              <input type="checkbox" name="private" /> Private channel
            </label>
            <Button type="submit" variant="primary">
              Join channel
            </Button>
          </form>
        </Card>
      ) : null}
      {view.phase === 'joining' ? (
        <div className="space-y-3">
          <Loading label={`Joining ${view.join.channel}…`} />
          <Button onClick={() => actor.send({ type: 'channel.leave' })}>Leave channel</Button>
        </div>
      ) : null}
      {view.phase === 'failed' ? (
        <ErrorPanel title="The channel could not be joined" message={view.error} onRetry={() => actor.send({ type: 'channel.reset' })} />
      ) : null}
      {view.phase === 'live' || view.phase === 'paused' ? (
        <div className="space-y-4">
          <Card className="flex flex-wrap items-center gap-3 px-5 py-3 text-sm">
            <p role="status">
              {view.phase === 'live' ? 'Listening on' : 'Paused on'} <span className="font-mono">{view.join.channel}</span>
              {view.join.private ? ' (private)' : ''} as {view.join.role}
              {view.phase === 'paused' && view.held > 0 ? ` — ${view.held} new message${view.held === 1 ? '' : 's'} waiting` : ''}
            </p>
            {view.phase === 'live' ? (
              <Button onClick={() => actor.send({ type: 'messages.pause' })}>Pause</Button>
            ) : (
              <Button onClick={() => actor.send({ type: 'messages.resume' })}>Resume</Button>
            )}
            <Button onClick={() => actor.send({ type: 'messages.clear' })}>Clear</Button>
            <Button onClick={() => actor.send({ type: 'channel.leave' })}>Leave channel</Button>
            <label className="ml-auto flex items-center gap-2">
              Filter
              <input
                aria-label="Filter messages"
                value={view.filter}
                onChange={(e) => actor.send({ type: 'messages.filter', text: e.target.value })}
                className={inputClass}
              />
            </label>
          </Card>
          <Card className="px-5 py-4">
            <form aria-label="Send a broadcast" onSubmit={send} className="flex flex-wrap items-end gap-4 text-sm">
              <label className="flex flex-col gap-1">
                Event
                <input name="event" defaultValue="message" className={inputClass} />
              </label>
              <label className="flex grow flex-col gap-1">
                Payload (JSON)
                <input name="payload" defaultValue='{"text":"hello"}' className={inputClass} />
              </label>
              <Button type="submit">Send broadcast</Button>
            </form>
          </Card>
          <Messages messages={view.messages} selected={view.selected} onSelect={(id) => actor.send({ type: 'message.select', id })} />
        </div>
      ) : null}
    </div>
  )
}

function Messages({ messages, selected, onSelect }: { messages: InspectorMessage[]; selected: InspectorMessage | null; onSelect: (id: number | null) => void }) {
  return (
    <Card>
      <h2 className="border-b border-neutral-200 px-5 py-2 text-sm font-medium dark:border-neutral-800">
        Messages (newest first, the last {MAX_MESSAGES} kept)
      </h2>
      {messages.length === 0 ? (
        <p className="px-5 py-6 text-center text-sm text-neutral-500">No messages yet.</p>
      ) : (
        <ul aria-label="Messages" className="divide-y divide-neutral-100 text-sm dark:divide-neutral-800">
          {messages.map((m) => (
            <li key={m.id}>
              <button
                type="button"
                aria-expanded={selected?.id === m.id}
                onClick={() => onSelect(selected?.id === m.id ? null : m.id)}
                className="flex w-full gap-3 px-5 py-2 text-left hover:bg-neutral-50 dark:hover:bg-neutral-900"
              >
                <span className="w-32 shrink-0 font-mono text-xs text-neutral-500">{m.at.slice(11, 23)}</span>
                <span className="w-36 shrink-0">{m.kind}</span>
                <span className="font-medium">{m.event}</span>
              </button>
              {selected?.id === m.id ? (
                <pre aria-label="Message JSON" className="overflow-x-auto bg-neutral-50 px-5 py-3 font-mono text-xs dark:bg-neutral-900">
                  {JSON.stringify(m.payload, null, 2)}
                </pre>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}
