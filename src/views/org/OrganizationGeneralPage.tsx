import { useSelector } from '@xstate/react'
import type { FormEvent } from 'react'
import type { ActorRefFrom } from 'xstate'
import {
  NO_PERMISSION_TEXT,
  selectCanSaveSettings,
  selectOrganizationSettingsView,
  type organizationSettingsMachine,
} from '../../../machines/organizationSettings.machine'
import { ORGANIZATION_NAME_MAX } from '../../contracts/orgSettings'
import { Button, Card, DataList, ErrorPanel, inputClass, Loading, PageHeading } from '../shell/ui'
import { useDocumentTitle } from '../shell/useDocumentTitle'
import { SettingSwitch } from '../shell/SettingSwitch'

export type OrganizationSettingsActorRef = ActorRefFrom<typeof organizationSettingsMachine>

/** /org/{slug}/general: the organization's name (renamed here), its slug, and its opt-in preferences. */
export function OrganizationGeneralPage({ settings }: { settings: OrganizationSettingsActorRef }) {
  useDocumentTitle('Organization settings')
  const view = useSelector(settings, selectOrganizationSettingsView)
  const canSave = useSelector(settings, selectCanSaveSettings)

  function onSubmit(event: FormEvent) {
    event.preventDefault()
    settings.send({ type: 'settings.save' })
  }

  return (
    <div className="mx-auto w-full max-w-4xl px-6 py-8">
      <PageHeading title="Organization settings" description={view.phase === 'ready' ? view.organization.name : undefined} />
      {view.phase === 'loading' ? <Loading label="Loading organization…" /> : null}
      {view.phase === 'loadFailed' ? (
        <ErrorPanel title="Failed to load organization" message={view.error} onRetry={() => settings.send({ type: 'settings.retry' })} />
      ) : null}
      {view.phase === 'ready' ? (
        <form onSubmit={onSubmit} className="space-y-6" noValidate>
          {view.canEdit ? null : (
            <p className="rounded-md border border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200">
              {NO_PERMISSION_TEXT}
            </p>
          )}
          <Card className="space-y-4 p-5">
            <h2 className="font-semibold">General</h2>
            <div>
              <label htmlFor="organization-name" className="text-sm font-medium">
                Organization name
              </label>
              <input
                id="organization-name"
                className={`${inputClass} mt-1`}
                value={view.draft.name}
                maxLength={ORGANIZATION_NAME_MAX + 20}
                disabled={!view.canEdit || view.saving}
                aria-invalid={view.nameError !== null}
                aria-describedby={view.nameError ? 'organization-name-error' : undefined}
                onChange={(event) => settings.send({ type: 'draft.edit', draft: { name: event.target.value } })}
              />
              {view.nameError ? (
                <p id="organization-name-error" className="mt-1 text-sm text-red-700 dark:text-red-400">
                  {view.nameError}
                </p>
              ) : null}
            </div>
            <DataList rows={[['Organization slug', <span className="font-mono">{view.organization.slug}</span>]]} />
          </Card>
          <Card className="space-y-4 p-5">
            <h2 className="font-semibold">Data privacy</h2>
            <SettingSwitch
              label="Share anonymous schema metadata with the AI"
              description="Lets members send table and column names and types (never your data) with their prompts, to get better SQL suggestions. Each member still chooses in the project's AI settings."
              checked={view.draft.aiSql}
              disabled={!view.canEdit || view.saving}
              onToggle={() => settings.send({ type: 'draft.edit', draft: { aiSql: !view.draft.aiSql } })}
            />
          </Card>
          <div className="flex items-center gap-4">
            <Button type="submit" variant="primary" disabled={!canSave}>
              {view.saving ? 'Saving…' : 'Save'}
            </Button>
            {view.outcome ? (
              <p role={view.outcome.kind === 'failed' ? 'alert' : 'status'} className={view.outcome.kind === 'failed' ? 'text-sm text-red-700 dark:text-red-400' : 'text-sm text-emerald-700 dark:text-emerald-400'}>
                {view.outcome.text}
              </p>
            ) : null}
          </div>
        </form>
      ) : null}
    </div>
  )
}
