import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { selectRealtimeChannelsView, type realtimeChannelsMachine } from '../../../../machines/realtimeChannels.machine'
import { useAppLogic } from '../../shell/logic'
import { Card, ErrorPanel, InlineError, Loading, PageHeading } from '../../shell/ui'
import { PAGE_CLASS, ProjectMachinePage } from '../ProjectMachinePage'

export type RealtimeChannelsActorRef = ActorRefFrom<typeof realtimeChannelsMachine>

const HEADING = { title: 'Realtime channels', description: 'The project’s channels open now and the clients joined to each, refreshed every few seconds.' }

/** /project/{ref}/realtime/channels */
export function RealtimeChannelsPage() {
  const logic = useAppLogic()
  return (
    <ProjectMachinePage
      machine={logic.realtimeChannels}
      heading={HEADING}
      loadingLabel="Loading channels…"
      input={(ref) => ({ ref })}
      render={(actor) => <RealtimeChannels actor={actor} />}
    />
  )
}

/** A moment as the list shows it: the day and the time in UTC, so every viewer reads the same. */
const joinedLabel = (iso: string) => {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 19)} UTC`
}

export function RealtimeChannels({ actor }: { actor: RealtimeChannelsActorRef }) {
  const view = useSelector(actor, selectRealtimeChannelsView)
  return (
    <div className={PAGE_CLASS}>
      <PageHeading {...HEADING} />
      {view.phase === 'loading' ? <Loading label="Loading channels…" /> : null}
      {view.phase === 'failed' ? <ErrorPanel title="Failed to load the channels" message={`${view.error}. Trying again shortly.`} /> : null}
      {view.phase === 'ready' ? (
        <div className="space-y-4">
          <p className="text-sm">
            {view.channels.connections} open connection{view.channels.connections === 1 ? '' : 's'}, {view.channels.channels.length} channel
            {view.channels.channels.length === 1 ? '' : 's'}
          </p>
          {view.error ? <InlineError>{`The list could not be refreshed: ${view.error}`}</InlineError> : null}
          {view.channels.channels.length === 0 ? (
            <Card className="px-5 py-6 text-center text-sm text-neutral-600 dark:text-neutral-300">No channels are open. A channel appears here when a client joins it.</Card>
          ) : (
            view.channels.channels.map((channel) => (
              <Card key={channel.topic}>
                <h2 className="border-b border-neutral-200 px-5 py-2 text-sm font-medium dark:border-neutral-800">
                  <span className="font-mono">{channel.topic}</span> {channel.private ? '(private)' : '(public)'} — {channel.clients.length} client
                  {channel.clients.length === 1 ? '' : 's'}
                </h2>
                <table aria-label={`Clients of ${channel.topic}`} className="w-full text-left text-sm">
                  <thead className="text-xs text-neutral-600 dark:text-neutral-300">
                    <tr>
                      <th className="px-5 py-2 font-medium">Client</th>
                      <th className="px-5 py-2 font-medium">Role</th>
                      <th className="px-5 py-2 font-medium">Presence key</th>
                      <th className="px-5 py-2 font-medium">Joined at</th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-neutral-100 dark:divide-neutral-800">
                    {channel.clients.map((client) => (
                      <tr key={client.id}>
                        <td className="px-5 py-2 font-mono text-xs">{client.id}</td>
                        <td className="px-5 py-2">{client.role}</td>
                        <td className="px-5 py-2">{client.presence_key ?? '—'}</td>
                        <td className="px-5 py-2">{joinedLabel(client.joined_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </Card>
            ))
          )}
        </div>
      ) : null}
    </div>
  )
}
