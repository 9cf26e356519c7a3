import { useSelector } from '@xstate/react'
import type { FormEvent } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectProfileView, type profileMachine } from '../../../machines/profile.machine'
import { Button, Card, inputClass, InlineError } from '../shell/ui'
import { Field, fieldAria } from '../shell/Field'

export type ProfileActorRef = ActorRefFrom<typeof profileMachine>

/** The username (editable) and the primary e-mail (shown). */
export function ProfileForm({ profile }: { profile: ProfileActorRef }) {
  const view = useSelector(profile, selectProfileView)
  const canSave = useSelector(profile, (snapshot) => snapshot.can({ type: 'username.save' }))
  function submit(event: FormEvent) {
    event.preventDefault()
    profile.send({ type: 'username.save' })
  }
  return (
    <Card className="p-5">
      <form noValidate onSubmit={submit} aria-label="Profile" className="space-y-4">
        <Field id="profile-username" label="Username" error={view.draftError}>
          <input
            {...fieldAria('profile-username', { error: view.draftError })}
            name="username"
            autoComplete="username"
            className={inputClass}
            value={view.draft}
            onChange={(event) => profile.send({ type: 'username.edit', username: event.target.value })}
          />
        </Field>
        <dl className="space-y-1.5">
          <dt className="text-sm font-medium">Primary email</dt>
          <dd className="text-sm">{view.email}</dd>
        </dl>
        {view.error ? (
          <InlineError>{view.error}</InlineError>
        ) : null}
        {view.saved ? (
          <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
            Profile saved
          </p>
        ) : null}
        <Button type="submit" variant="primary" disabled={!canSave}>
          {view.saving ? 'Saving…' : 'Save'}
        </Button>
      </form>
    </Card>
  )
}
