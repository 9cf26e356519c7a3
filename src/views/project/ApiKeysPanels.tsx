import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import {
  type apiKeysMachine,
  selectApiKeysView,
  selectCopier,
  selectJwtSecretActor,
  selectProjectConfigView,
  type CopyTarget,
  type KeyRowView,
  type ShownValue,
} from '../../../machines/apiKeys.machine'
import { selectJwtSecretView, type jwtSecretMachine } from '../../../machines/jwtSecret.machine'
import { Button, Card, cx } from '../shell/ui'
import { CopyButton } from '../shell/CopyButton'
import { GenerateJwtSecretDialog } from './GenerateJwtSecretDialog'

export type ApiKeysActorRef = ActorRefFrom<typeof apiKeysMachine>
export type JwtSecretActorRef = ActorRefFrom<typeof jwtSecretMachine>

const MASK = '•'.repeat(40)

function useCopier(actor: ApiKeysActorRef, key: CopyTarget) {
  return useSelector(actor, selectCopier(key))
}

function Tag({ children, tone }: { children: string; tone: 'neutral' | 'public' | 'secret' }) {
  return (
    <span
      className={cx(
        'rounded px-1.5 py-0.5 font-mono text-xs',
        tone === 'neutral' && 'bg-neutral-100 text-neutral-700 dark:bg-neutral-800 dark:text-neutral-300',
        tone === 'public' && 'bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
        tone === 'secret' && 'bg-red-50 text-red-800 dark:bg-red-950 dark:text-red-300',
      )}
    >
      {children}
    </span>
  )
}

/** A value box: the value, a mask (the value itself never in the page), or a message in its place. */
function ValueBox({ shown, label }: { shown: ShownValue; label: string }) {
  return (
    <div
      aria-label={label}
      className={cx(
        'min-w-0 flex-1 truncate rounded-md border border-neutral-200 bg-neutral-50 px-3 py-1.5 text-sm dark:border-neutral-800 dark:bg-neutral-950',
        shown.kind === 'message' ? 'text-neutral-500 dark:text-neutral-400' : 'font-mono text-neutral-900 dark:text-neutral-100',
      )}
    >
      {shown.kind === 'value' ? shown.text : shown.kind === 'masked' ? <span aria-label="masked">{MASK}</span> : shown.text}
    </div>
  )
}

const KEY_COPY: Record<KeyRowView['tag'], { labels: Array<[string, 'neutral' | 'public' | 'secret']>; description: string }> = {
  anon: {
    labels: [
      ['anon', 'neutral'],
      ['public', 'public'],
    ],
    description: 'This key is safe to use in a browser if you have enabled Row Level Security for your tables and configured policies.',
  },
  service_role: {
    labels: [
      ['service_role', 'neutral'],
      ['secret', 'secret'],
    ],
    description: 'This key has the ability to bypass Row Level Security. Never share it publicly.',
  },
}

function KeyRow({ actor, row }: { actor: ApiKeysActorRef; row: KeyRowView }) {
  const copier = useCopier(actor, row.tag)
  const canCopy = useSelector(actor, (snapshot) => snapshot.can({ type: 'value.copy', key: row.tag }))
  const canReveal = useSelector(actor, (snapshot) => snapshot.can({ type: 'serviceKey.reveal' }))
  const canHide = useSelector(actor, (snapshot) => snapshot.can({ type: 'serviceKey.hide' }))
  const { labels, description } = KEY_COPY[row.tag]
  const titleId = `api-key-${row.tag}`
  return (
    <div role="group" aria-labelledby={titleId} className="grid gap-3 px-5 py-4 md:grid-cols-[14rem_1fr]">
      <div className="space-y-1.5">
        <p id={titleId} className="sr-only">{`${row.tag} key`}</p>
        <p className="flex flex-wrap gap-1.5">
          {labels.map(([label, tone]) => (
            <Tag key={label} tone={tone}>
              {label}
            </Tag>
          ))}
        </p>
        <p className="text-xs text-neutral-500 dark:text-neutral-400">{description}</p>
      </div>
      <div className="flex min-w-0 items-center gap-2">
        <ValueBox shown={row.shown} label={`${row.tag} key value`} />
        {row.revealable ? (
          row.revealed ? (
            <Button onClick={() => actor.send({ type: 'serviceKey.hide' })} disabled={!canHide}>
              Hide
            </Button>
          ) : (
            <Button onClick={() => actor.send({ type: 'serviceKey.reveal' })} disabled={!canReveal}>
              Reveal
            </Button>
          )
        ) : null}
        <CopyButton copier={copier} enabled={canCopy} onCopy={() => actor.send({ type: 'value.copy', key: row.tag })} />
      </div>
    </div>
  )
}

function PanelHeader({ id, title, description }: { id: string; title: string; description: string }) {
  return (
    <header className="border-b border-neutral-200 px-5 py-4 dark:border-neutral-800">
      <h2 id={id} className="font-semibold text-neutral-900 dark:text-neutral-50">
        {title}
      </h2>
      <p className="mt-1 text-sm text-neutral-500 dark:text-neutral-400">{description}</p>
    </header>
  )
}

function Pending({ text }: { text: string }) {
  return (
    <div role="status" aria-live="polite" className="flex items-center gap-3 px-5 py-6 text-sm text-neutral-500 dark:text-neutral-400">
      <span aria-hidden className="h-4 w-4 animate-spin rounded-full border-2 border-neutral-300 border-t-emerald-600" />
      {text}
    </div>
  )
}

function Failure({ text }: { text: string }) {
  return (
    <div role="alert" className="px-5 py-6 text-sm">
      <p className="font-medium text-red-700 dark:text-red-400">{text}</p>
      <p className="mt-1 text-neutral-500 dark:text-neutral-400">Trying again every 2 seconds.</p>
    </div>
  )
}

/** 'Project API keys': one row per key with its tag labels. */
export function ApiKeysPanel({ actor }: { actor: ApiKeysActorRef }) {
  const view = useSelector(actor, selectApiKeysView)
  return (
    <section aria-labelledby="project-api-keys">
      <Card>
        <PanelHeader
          id="project-api-keys"
          title="Project API keys"
          description="Your API is secured behind an API gateway which requires an API key for every request. Use these keys in the client libraries."
        />
        {view.phase === 'retrieving' ? <Pending text="Retrieving API keys" /> : null}
        {view.phase === 'failed' ? <Failure text="Failed to retrieve API keys" /> : null}
        {view.phase === 'ready' ? (
          <div className="divide-y divide-neutral-200 dark:divide-neutral-800">
            {view.rows.map((row) => (
              <KeyRow key={row.tag} actor={actor} row={row} />
            ))}
          </div>
        ) : null}
      </Card>
    </section>
  )
}

export function JwtNotice({ jwt }: { jwt: JwtSecretActorRef }) {
  const notice = useSelector(jwt, (snapshot) => selectJwtSecretView(snapshot).notice)
  if (notice === null) return null
  return notice.tone === 'progress' ? (
    <div role="status" aria-live="polite" className="mx-5 mb-4 flex items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200">
      <span aria-hidden className="h-3 w-3 animate-spin rounded-full border-2 border-amber-300 border-t-amber-700" />
      {notice.title}
    </div>
  ) : (
    <div role="alert" className="mx-5 mb-4 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300">
      <p className="font-medium">{notice.title}</p>
      {notice.detail ? <p className="mt-0.5">{notice.detail}</p> : null}
    </div>
  )
}

export function GenerateAction({ jwt }: { jwt: JwtSecretActorRef }) {
  const canGenerate = useSelector(jwt, (snapshot) => snapshot.can({ type: 'secret.generate' }))
  return (
    <Button variant="danger" onClick={() => jwt.send({ type: 'secret.generate' })} disabled={!canGenerate}>
      Generate a new JWT secret
    </Button>
  )
}

/** 'Project Configuration': URL and JWT Secret rows, and the JWT secret rotation. */
export function ProjectConfigPanel({ actor }: { actor: ApiKeysActorRef }) {
  const view = useSelector(actor, selectProjectConfigView)
  const jwt = useSelector(actor, selectJwtSecretActor)
  const urlCopier = useCopier(actor, 'url')
  const secretCopier = useCopier(actor, 'jwt_secret')
  const canCopyUrl = useSelector(actor, (snapshot) => snapshot.can({ type: 'value.copy', key: 'url' }))
  const canCopySecret = useSelector(actor, (snapshot) => snapshot.can({ type: 'value.copy', key: 'jwt_secret' }))
  const canReveal = useSelector(actor, (snapshot) => snapshot.can({ type: 'jwtSecret.reveal' }))
  const canHide = useSelector(actor, (snapshot) => snapshot.can({ type: 'jwtSecret.hide' }))

  return (
    <section aria-labelledby="project-configuration">
      <Card>
        <PanelHeader id="project-configuration" title="Project Configuration" description="The address of your project's API and the secret its JSON Web Tokens are signed with." />
        {view.phase === 'failed' ? <Failure text="Failed to retrieve configuration" /> : null}
        {view.phase === 'retrieving' && view.url === null ? <Pending text="Retrieving configuration" /> : null}
        {view.phase !== 'failed' && view.url !== null ? (
          <div className="divide-y divide-neutral-200 dark:divide-neutral-800">
            <div role="group" aria-labelledby="config-url" className="grid gap-3 px-5 py-4 md:grid-cols-[14rem_1fr]">
              <div>
                <p id="config-url" className="text-sm font-medium">
                  URL
                </p>
                <p className="text-xs text-neutral-500 dark:text-neutral-400">A RESTful endpoint for querying and managing your database.</p>
              </div>
              <div className="flex min-w-0 items-center gap-2">
                <ValueBox shown={{ kind: 'value', text: view.url }} label="URL value" />
                <CopyButton copier={urlCopier} enabled={canCopyUrl} onCopy={() => actor.send({ type: 'value.copy', key: 'url' })} />
              </div>
            </div>
            <div role="group" aria-labelledby="config-jwt-secret" className="grid gap-3 px-5 py-4 md:grid-cols-[14rem_1fr]">
              <div>
                <p id="config-jwt-secret" className="text-sm font-medium">
                  JWT Secret
                </p>
                <p className="text-xs text-neutral-500 dark:text-neutral-400">Used to decode your JWTs. You can also use this to mint your own JWTs.</p>
              </div>
              <div className="space-y-3">
                <div className="flex min-w-0 items-center gap-2">
                  <ValueBox
                    shown={view.phase === 'ready' ? view.jwtSecret : { kind: 'message', text: 'Retrieving API keys' }}
                    label="JWT Secret value"
                  />
                  {view.phase === 'ready' && view.revealed ? (
                    <Button onClick={() => actor.send({ type: 'jwtSecret.hide' })} disabled={!canHide}>
                      Hide
                    </Button>
                  ) : (
                    <Button onClick={() => actor.send({ type: 'jwtSecret.reveal' })} disabled={!canReveal}>
                      Reveal
                    </Button>
                  )}
                  <CopyButton copier={secretCopier} enabled={canCopySecret} onCopy={() => actor.send({ type: 'value.copy', key: 'jwt_secret' })} />
                </div>
                {jwt && view.phase === 'ready' ? (
                  <div className="flex justify-end">
                    <GenerateAction jwt={jwt} />
                  </div>
                ) : null}
              </div>
            </div>
          </div>
        ) : null}
        {jwt ? <JwtNotice jwt={jwt} /> : null}
      </Card>
      {jwt ? <GenerateJwtSecretDialog jwt={jwt} /> : null}
    </section>
  )
}
