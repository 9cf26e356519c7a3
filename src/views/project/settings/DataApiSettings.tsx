/**
 * Settings › API, 'Data API settings': the schemas the project's REST API serves and the most rows a read answers, a
 * section of the page made from the settings form. Read-only for a member without projects:write.
 */
import { useSelector } from '@xstate/react'
import { useContext, useId } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectPostgrestSettingsView, type postgrestSettingsMachine } from '../../../../machines/postgrestSettings.machine'
import { selectProject } from '../../../../machines/projectStatus.machine'
import { selectOrgPermissions } from '../../../../machines/session.machine'
import { useShell } from '../../shell/contexts'
import { Field, fieldAria } from '../../shell/Field'
import { AppLogicContext, type AppLogic } from '../../shell/logic'
import { ProjectActorContext, type ProjectActorRef } from '../../shell/projectActor'
import { Loading, inputClass } from '../../shell/ui'
import { ProjectMachinePage } from '../ProjectMachinePage'
import { SettingsFormSection, SettingsSectionFrame, useSettingsForm, type SettingsFormTexts } from '../SettingsForm'

export type PostgrestSettingsActorRef = ActorRefFrom<typeof postgrestSettingsMachine>

const TEXTS: SettingsFormTexts = {
  heading: { title: 'Data API settings', description: "What your project's RESTful API serves." },
  loading: 'Loading Data API settings…',
  loadFailed: 'Failed to load the Data API settings',
  form: 'Data API settings',
  readOnly: 'Your role can see the Data API settings but not change them.',
}

export const DATA_API_FIELDS = {
  schemas: {
    label: 'Exposed schemas',
    hint: 'The schemas to expose in your API, separated by commas. Tables, views and stored procedures in these schemas will get API endpoints.',
  },
  maxRows: {
    label: 'Max rows',
    hint: 'The maximum number of rows returned from a view, table, or stored procedure. Limits payload size for accidental or malicious requests.',
  },
} as const

/** The section on the API page of a project (nothing outside a project route). */
export function DataApiSection() {
  const projectActor = useContext(ProjectActorContext)
  const logic = useContext(AppLogicContext)
  return projectActor && logic ? <ProjectDataApiSection projectActor={projectActor} logic={logic} /> : null
}

function ProjectDataApiSection({ projectActor, logic }: { projectActor: ProjectActorRef; logic: AppLogic }) {
  const project = useSelector(projectActor, selectProject)
  const permissions = useSelector(useShell().session, selectOrgPermissions(project?.organization_slug ?? null))
  const canManage = permissions.includes('projects:write')
  return (
    <ProjectMachinePage
      key={String(canManage)}
      machine={logic.postgrestSettings}
      heading={TEXTS.heading}
      loadingLabel={TEXTS.loading}
      fallback={
        <SettingsSectionFrame heading={TEXTS.heading}>
          <Loading label={TEXTS.loading} />
        </SettingsSectionFrame>
      }
      input={(ref) => ({ ref, canManage })}
      render={(actor) => <DataApiSettings actor={actor} />}
    />
  )
}

export function DataApiSettings({ actor }: { actor: PostgrestSettingsActorRef }) {
  const { edit, ...form } = useSettingsForm(actor, selectPostgrestSettingsView)
  const id = useId()
  return (
    <SettingsFormSection {...form} texts={TEXTS}>
      {({ draft, errors }, readOnly) => (
        <div className="grid gap-5 md:grid-cols-2">
          <Field id={`${id}-schemas`} label={DATA_API_FIELDS.schemas.label} hint={DATA_API_FIELDS.schemas.hint} error={errors.schemas}>
            <input
              {...fieldAria(`${id}-schemas`, { hint: true, error: errors.schemas })}
              className={`${inputClass} font-mono`}
              value={draft.schemas}
              readOnly={readOnly}
              spellCheck={false}
              onChange={(e) => edit({ schemas: e.target.value })}
            />
          </Field>
          <Field id={`${id}-maxRows`} label={DATA_API_FIELDS.maxRows.label} hint={DATA_API_FIELDS.maxRows.hint} error={errors.maxRows}>
            <input
              {...fieldAria(`${id}-maxRows`, { hint: true, error: errors.maxRows })}
              inputMode="numeric"
              className={inputClass}
              value={draft.maxRows}
              readOnly={readOnly}
              onChange={(e) => edit({ maxRows: e.target.value })}
            />
          </Field>
        </div>
      )}
    </SettingsFormSection>
  )
}
