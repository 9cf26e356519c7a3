/**
 * The frame of a form made from the settings form machine (machines/settingsForm.machine.ts): the heading, loading
 * and a failed load, the note to a member who may only read, the form with its notice, its error, Cancel and Save.
 * The form is a whole page (SettingsForm) or a section of one (SettingsFormSection); the page gives only its fields.
 */
import { useSelector } from '@xstate/react'
import { useId, type FormEvent, type ReactNode } from 'react'
import type { ActorRef, Snapshot } from 'xstate'
import type { SettingsFormEvent, SettingsFormView } from '../../../machines/settingsForm.machine'
import { Button, Card, ErrorPanel, InlineError, Loading, PageHeading } from '../shell/ui'
import { PAGE_CLASS } from './ProjectMachinePage'

export interface SettingsFormTexts {
  /** The page's heading (h1), or the section's (h2). */
  heading: { title: string; description: string }
  loading: string
  loadFailed: string
  /** The form's accessible name. */
  form: string
  readOnly: string
}

interface Props<Draft, Field extends string> {
  view: SettingsFormView<Draft, Field>
  texts: SettingsFormTexts
  canSave: boolean
  canReset: boolean
  send(event: { type: 'settings.retry' } | { type: 'settings.save' } | { type: 'settings.reset' }): void
  /** The fields, read-only while saving or for a member who may only read. */
  children(ready: Extract<SettingsFormView<Draft, Field>, { phase: 'ready' }>, readOnly: boolean): ReactNode
}

/** A settings form machine's snapshot, as far as its page reads it. */
type FormSnapshot = Snapshot<unknown> & { can(event: { type: 'settings.save' } | { type: 'settings.reset' }): boolean }

/**
 * What a page made from the settings form reads of its actor and sends it: the view (the page's selector), whether
 * Save and Cancel do anything now, an edit of the draft, and the frame's events. Spread into SettingsForm or
 * SettingsFormSection.
 */
export function useSettingsForm<S extends FormSnapshot, Change, Draft, Field extends string>(
  actor: ActorRef<S, SettingsFormEvent<Change>>,
  select: (snapshot: S) => SettingsFormView<Draft, Field>,
) {
  return {
    view: useSelector(actor, select),
    canSave: useSelector(actor, (s) => s.can({ type: 'settings.save' })),
    canReset: useSelector(actor, (s) => s.can({ type: 'settings.reset' })),
    edit: (change: Change) => actor.send({ type: 'settings.edit', change }),
    send: (event: SettingsFormEvent<Change>) => actor.send(event),
  }
}

function Notice({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-200">
      {children}
    </p>
  )
}

/** What the form shows in each phase, inside the page's or the section's frame. */
function FormContent<Draft, Field extends string>({ view, texts, canSave, canReset, send, children }: Props<Draft, Field>) {
  if (view.phase === 'loading') return <Loading label={texts.loading} />
  if (view.phase === 'failed') return <ErrorPanel title={texts.loadFailed} message={view.error} onRetry={() => send({ type: 'settings.retry' })} />
  function submit(event: FormEvent) {
    event.preventDefault()
    send({ type: 'settings.save' })
  }
  return (
    <>
      {!view.canManage ? <p className="mb-4 text-sm text-neutral-600 dark:text-neutral-300">{texts.readOnly}</p> : null}
      <form aria-label={texts.form} onSubmit={submit} className="space-y-6">
        {children(view, !view.canManage || view.saving)}
        {view.notice ? <Notice>{view.notice}</Notice> : null}
        {view.error ? <InlineError>{view.error}</InlineError> : null}
        {view.canManage ? (
          <div className="flex justify-end gap-2">
            <Button disabled={!canReset} onClick={() => send({ type: 'settings.reset' })}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" disabled={!canSave}>
              {view.saving ? 'Saving…' : 'Save'}
            </Button>
          </div>
        ) : null}
      </form>
    </>
  )
}

/** A settings form that is the whole page: the page's heading above it. */
export function SettingsForm<Draft, Field extends string>(props: Props<Draft, Field>) {
  return (
    <div className={PAGE_CLASS}>
      <PageHeading {...props.texts.heading} />
      <FormContent {...props} />
    </div>
  )
}

/** A settings form that is one section of a page: a card with the section's heading. */
export function SettingsFormSection<Draft, Field extends string>(props: Props<Draft, Field>) {
  return (
    <SettingsSectionFrame heading={props.texts.heading}>
      <FormContent {...props} />
    </SettingsSectionFrame>
  )
}

/** The card of a settings section, also shown while its code loads. */
export function SettingsSectionFrame({ heading, children }: { heading: SettingsFormTexts['heading']; children: ReactNode }) {
  const id = useId()
  return (
    <Card>
      <section aria-labelledby={id} className="space-y-4 px-5 py-4">
        <div>
          <h2 id={id} className="font-semibold">
            {heading.title}
          </h2>
          <p className="mt-1 text-sm text-neutral-500 dark:text-neutral-400">{heading.description}</p>
        </div>
        {children}
      </section>
    </Card>
  )
}

/** A switch of a settings form, with its label and what it does. */
export function SettingSwitch({ id, label, hint, checked, disabled, onChange }: { id: string; label: string; hint: string; checked: boolean; disabled: boolean; onChange(checked: boolean): void }) {
  return (
    <div className="flex items-start justify-between gap-4">
      <div>
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <p id={`${id}-hint`} className="text-xs text-neutral-600 dark:text-neutral-300">
          {hint}
        </p>
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        aria-checked={checked}
        aria-describedby={`${id}-hint`}
        className="mt-1 h-4 w-4 accent-emerald-600"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
      />
    </div>
  )
}
