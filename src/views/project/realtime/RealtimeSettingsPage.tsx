import { useSelector } from '@xstate/react'
import { useId } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectOrgPermissions } from '../../../../machines/session.machine'
import { selectProject } from '../../../../machines/projectStatus.machine'
import {
  LIMIT_KEYS,
  selectRealtimeSettingsView,
  type LimitKey,
  type realtimeSettingsMachine,
} from '../../../../machines/realtimeSettings.machine'
import { useShell } from '../../shell/contexts'
import { Field, fieldAria } from '../../shell/Field'
import { useAppLogic } from '../../shell/logic'
import { useProjectActor } from '../../shell/projectActor'
import { Card, inputClass } from '../../shell/ui'
import { ProjectMachinePage } from '../ProjectMachinePage'
import { SettingSwitch, SettingsForm, useSettingsForm, type SettingsFormTexts } from '../SettingsForm'

export type RealtimeSettingsActorRef = ActorRefFrom<typeof realtimeSettingsMachine>

const HEADING = { title: 'Realtime settings', description: 'The limits the project’s realtime service applies to its clients and channels.' }

/** Each limit's label and what it bounds. */
export const LIMIT_TEXT: Record<LimitKey, { label: string; hint: string }> = {
  max_concurrent_users: { label: 'Max concurrent clients', hint: 'Sets maximum number of concurrent clients that can connect to your Realtime service (1 to 50,000).' },
  max_channels_per_client: { label: 'Max channels per client', hint: 'Channels one connection may join (1 to 10,000); a join past it is refused on that channel.' },
  max_events_per_second: { label: 'Max events per second', hint: 'Messages a project’s clients may send each second (1 to 50,000); past it a message is refused, the connection kept.' },
  max_bytes_per_second: { label: 'Max bytes per second', hint: 'Bytes of messages a project’s clients may send each second (1 to 10,000,000).' },
  max_joins_per_second: { label: 'Max joins per second', hint: 'Channel joins the project accepts each second (1 to 5,000).' },
  max_presence_events_per_second: { label: 'Max presence events per second', hint: 'Presence track and untrack events each second (1 to 5,000).' },
  max_presence_keys_per_object: { label: 'Max presence keys per object', hint: 'Keys one tracked presence object may have (1 to 100).' },
  max_payload_size_in_kb: { label: 'Max payload size in KB', hint: 'The largest message a client may send, in kilobytes (1 to 10,000).' },
  connection_pool: { label: 'Database connection pool size', hint: 'Realtime Authorization uses this database pool to check client access (1 to 100).' },
}

/** /project/{ref}/realtime/settings — read-only for a member without realtime:all. */
export function RealtimeSettingsPage() {
  const logic = useAppLogic()
  const project = useSelector(useProjectActor(), selectProject)
  const permissions = useSelector(useShell().session, selectOrgPermissions(project?.organization_slug ?? null))
  const canManage = permissions.includes('realtime:all')
  return (
    <ProjectMachinePage
      key={String(canManage)}
      machine={logic.realtimeSettings}
      heading={HEADING}
      loadingLabel="Loading realtime settings…"
      input={(ref) => ({ ref, canManage })}
      render={(actor) => <RealtimeSettings actor={actor} />}
    />
  )
}

/** The channel restrictions as the page words them. */
const SWITCHES: Array<['allowPublic' | 'presenceEnabled', string, string]> = [
  ['allowPublic', 'Allow public access', 'If disabled, only private channels will be allowed: a client must be authorized by the policies on realtime.messages.'],
  ['presenceEnabled', 'Enable presence', 'If disabled, clients cannot track presence on the project’s channels.'],
]

const TEXTS: SettingsFormTexts = {
  heading: HEADING,
  loading: 'Loading realtime settings…',
  loadFailed: 'Failed to load the realtime settings',
  form: 'Realtime settings',
  readOnly: 'Your role can see the realtime settings but not change them.',
}

export function RealtimeSettings({ actor }: { actor: RealtimeSettingsActorRef }) {
  const { edit, ...form } = useSettingsForm(actor, selectRealtimeSettingsView)
  const id = useId()
  return (
    <SettingsForm {...form} texts={TEXTS}>
      {({ draft, errors }, readOnly) => (
        <>
          <Card className="space-y-5 p-5">
            <h2 className="text-base font-semibold">Channel restrictions</h2>
            {SWITCHES.map(([key, label, hint]) => (
              <SettingSwitch key={key} id={`${id}-${key}`} label={label} hint={hint} checked={draft[key]} disabled={readOnly} onChange={(checked) => edit({ [key]: checked })} />
            ))}
          </Card>
          <Card className="grid gap-5 p-5 md:grid-cols-2">
            <h2 className="text-base font-semibold md:col-span-2">Limits</h2>
            {LIMIT_KEYS.map((key) => (
              <Field key={key} id={`${id}-${key}`} label={LIMIT_TEXT[key].label} hint={LIMIT_TEXT[key].hint} error={errors[key]}>
                <input
                  {...fieldAria(`${id}-${key}`, { hint: true, error: errors[key] })}
                  inputMode="numeric"
                  className={inputClass}
                  value={draft.limits[key]}
                  readOnly={readOnly}
                  onChange={(e) => edit({ limit: { key, text: e.target.value } })}
                />
              </Field>
            ))}
          </Card>
        </>
      )}
    </SettingsForm>
  )
}
