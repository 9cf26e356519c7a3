import { useActorRef, useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { selectAiSettingsView, selectCanToggleAi, type aiSettingsMachine } from '../../../../machines/aiSettings.machine'
import { SettingSwitch } from '../../shell/SettingSwitch'
import { useBuildFlags } from '../../shell/contexts'
import { useLoaded } from '../../shell/lazy'
import { useAppLogic } from '../../shell/logic'
import { Modal } from '../../shell/Modal'
import { ErrorPanel, Loading, TextLink } from '../../shell/ui'

export type AiSettingsActorRef = ActorRefFrom<typeof aiSettingsMachine>

/** The dialog with its own actor, one per opening (loaded with its machine when first opened). */
export default function AiSettingsDialogHost({ projectRef, onClose }: { projectRef: string; onClose: () => void }) {
  const { isPlatform } = useBuildFlags()
  const actor = useActorRef(useLoaded(useAppLogic().aiSettings), { input: { ref: projectRef, isPlatform } })
  return <AiSettingsDialog actor={actor} onClose={onClose} />
}

/** 'Supabase AI Settings': the switch to send anonymous schema metadata, under the organization's opt-in (platform). */
export function AiSettingsDialog({ actor, onClose }: { actor: AiSettingsActorRef; onClose: () => void }) {
  const view = useSelector(actor, selectAiSettingsView)
  const canToggle = useSelector(actor, selectCanToggleAi)
  return (
    <Modal open onClose={onClose} title="Supabase AI Settings">
      {view.phase === 'loading' ? <Loading label="Loading AI settings…" /> : null}
      {view.phase === 'loadFailed' ? (
        <ErrorPanel title="Failed to load AI settings" message={view.error} onRetry={() => actor.send({ type: 'aiSettings.retry' })} />
      ) : null}
      {view.phase === 'ready' ? (
        <div className="space-y-4">
          <SettingSwitch
            label="Send anonymous schema metadata"
            description="Table and column names and types of this project (never its data) go with your prompts, for better SQL."
            checked={view.checked}
            disabled={!canToggle}
            onToggle={() => actor.send({ type: 'schemaMetadata.toggle' })}
          />
          {view.notAllowed ? (
            <div className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200">
              <p>{view.notAllowed.text}</p>
              <p className="mt-1">
                <TextLink href={view.notAllowed.href}>Organization settings</TextLink>
              </p>
            </div>
          ) : null}
          {view.saving ? <p className="text-sm text-neutral-600 dark:text-neutral-400">Saving…</p> : null}
          {view.outcome ? (
            <p role={view.outcome.kind === 'failed' ? 'alert' : 'status'} className={view.outcome.kind === 'failed' ? 'text-sm text-red-700 dark:text-red-400' : 'text-sm text-emerald-700 dark:text-emerald-400'}>
              {view.outcome.text}
            </p>
          ) : null}
        </div>
      ) : null}
    </Modal>
  )
}
