import { useSelector } from '@xstate/react'
import { useState } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectJwtSecretView, type jwtSecretMachine } from '../../../machines/jwtSecret.machine'
import { JWT_SECRET_MIN_LENGTH } from '../../contracts/keys'
import { Modal } from '../shell/Modal'
import { Button, inputClass } from '../shell/ui'

type JwtSecretActorRef = ActorRefFrom<typeof jwtSecretMachine>

/** The destructive confirmation of a JWT secret rotation: open while the machine is confirming or requesting. */
export function GenerateJwtSecretDialog({ jwt }: { jwt: JwtSecretActorRef }) {
  const open = useSelector(jwt, (snapshot) => selectJwtSecretView(snapshot).dialogOpen)
  return (
    <Modal open={open} onClose={() => jwt.send({ type: 'secret.cancel' })} title="Generate a new JWT secret">
      {open ? <GenerateForm jwt={jwt} /> : null}
    </Modal>
  )
}

/** The form's fields are the person's input (React state); whether it may be sent is the machine's `can`. */
function GenerateForm({ jwt }: { jwt: JwtSecretActorRef }) {
  const [mode, setMode] = useState<'roll' | 'custom'>('roll')
  const [custom, setCustom] = useState('')
  const event = mode === 'roll' ? { type: 'secret.confirm' as const } : { type: 'secret.confirm' as const, jwt_secret: custom }
  const canConfirm = useSelector(jwt, (snapshot) => snapshot.can(event))
  const canCancel = useSelector(jwt, (snapshot) => snapshot.can({ type: 'secret.cancel' }))
  const submitting = useSelector(jwt, (snapshot) => selectJwtSecretView(snapshot).submitting)
  const tooShort = mode === 'custom' && custom.length > 0 && custom.length < JWT_SECRET_MIN_LENGTH

  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault()
        jwt.send(event)
      }}
    >
      <div
        role="note"
        className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300"
      >
        <p className="font-medium">Every API key changes.</p>
        <p className="mt-1">
          The anon and service_role keys are signed again with the new secret. Anything that uses the current keys or the
          current secret stops working until you update it with the new ones. This cannot be undone.
        </p>
      </div>
      <fieldset className="space-y-2" disabled={submitting}>
        <legend className="text-sm font-medium">New secret</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="jwt-mode" checked={mode === 'roll'} onChange={() => setMode('roll')} />
          Generate a random secret
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="jwt-mode" checked={mode === 'custom'} onChange={() => setMode('custom')} />
          Create my own secret
        </label>
        {mode === 'custom' ? (
          <div className="space-y-1.5 pl-6">
            <label htmlFor="custom-jwt-secret" className="text-sm font-medium">
              Custom JWT secret
            </label>
            <input
              id="custom-jwt-secret"
              type="password"
              autoComplete="off"
              className={inputClass}
              value={custom}
              onChange={(e) => setCustom(e.target.value)}
              aria-describedby="custom-jwt-secret-hint"
            />
            <p id="custom-jwt-secret-hint" className={tooShort ? 'text-xs text-red-600 dark:text-red-400' : 'text-xs text-neutral-500'}>
              At least {JWT_SECRET_MIN_LENGTH} characters{tooShort ? ` (${custom.length} so far)` : ''}.
            </p>
          </div>
        ) : null}
      </fieldset>
      <div className="flex justify-end gap-2">
        <Button onClick={() => jwt.send({ type: 'secret.cancel' })} disabled={!canCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="danger" disabled={!canConfirm}>
          {submitting ? 'Generating…' : 'Generate new JWT secret'}
        </Button>
      </div>
    </form>
  )
}
