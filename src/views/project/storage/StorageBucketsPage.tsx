import { useSelector } from '@xstate/react'
import { useId, type FormEvent } from 'react'
import { Link } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import { href } from '../../../href'
import { BUCKETS_MAX_RETRIES } from '../../../../machines/bucketRetries'
import { selectOrgPermissions } from '../../../../machines/session.machine'
import { selectProject } from '../../../../machines/projectStatus.machine'
import {
  mayManageStorage,
  mimeTypesLabel,
  selectStorageBucketsView,
  sizeLimitLabel,
  type BucketDraft,
  type DraftErrors,
  type storageBucketsMachine,
} from '../../../../machines/storageBuckets.machine'
import type { Bucket } from '../../../contracts/storage'
import { useShell } from '../../shell/contexts'
import { useAppLogic } from '../../shell/logic'
import { useProjectActor } from '../../shell/projectActor'
import { Field, fieldAria } from '../../shell/Field'
import { BucketLimitFields } from './BucketLimitFields'
import { Modal } from '../../shell/Modal'
import { Button, Card, ErrorPanel, Loading, PageHeading, cx, inputClass, InlineError } from '../../shell/ui'
import { PAGE_CLASS, ProjectMachinePage } from '../ProjectMachinePage'

export type StorageBucketsActorRef = ActorRefFrom<typeof storageBucketsMachine>

const HEADING = { title: 'Storage', description: "The project's buckets: who may read their files, which types and how large." }

/** Whether the member manages the open project's storage, from the permissions the session already holds. */
export function useCanManageStorage(): boolean {
  const project = useSelector(useProjectActor(), selectProject)
  return mayManageStorage(useSelector(useShell().session, selectOrgPermissions(project?.organization_slug ?? null)))
}

/** /project/{ref}/storage/buckets */
export function StorageBucketsPage() {
  const logic = useAppLogic()
  const canManage = useCanManageStorage()
  return (
    <ProjectMachinePage
      // A change of role starts the page again with what the member may now do.
      key={String(canManage)}
      machine={logic.storageBuckets}
      heading={HEADING}
      loadingLabel="Loading buckets…"
      input={(ref) => ({ ref, canManage })}
      render={(actor) => <StorageBuckets actor={actor} />}
    />
  )
}

export function StorageBuckets({ actor }: { actor: StorageBucketsActorRef }) {
  const view = useSelector(actor, selectStorageBucketsView)
  const canCreate = useSelector(actor, (snapshot) => snapshot.can({ type: 'create.open' }))
  return (
    <div className={PAGE_CLASS}>
      <PageHeading
        {...HEADING}
        actions={
          view.phase === 'loaded' && view.writable ? (
            <Button variant="primary" disabled={!canCreate} onClick={() => actor.send({ type: 'create.open' })}>
              New bucket
            </Button>
          ) : null
        }
      />
      {view.phase === 'loading' ? (
        <>
          <Loading label={view.retry === 0 ? 'Loading buckets…' : `Loading buckets… (retry ${view.retry} of ${BUCKETS_MAX_RETRIES})`} />
          {view.lastError ? <p className="px-8 text-sm text-neutral-500">The last attempt failed: {view.lastError}</p> : null}
        </>
      ) : null}
      {view.phase === 'failed' ? (
        <ErrorPanel
          title={view.storageDisabled ? 'Storage is not enabled for this project' : 'Failed to load buckets'}
          message={view.error}
          onRetry={() => actor.send({ type: 'buckets.retry' })}
        />
      ) : null}
      {view.phase === 'loaded' ? (
        <>
          {view.writable ? null : (
            <p role="note" className="mb-4 rounded-md border border-neutral-300 p-2 text-sm dark:border-neutral-700">
              You can browse the buckets and download their files. Creating, changing and deleting them needs an Owner or Administrator.
            </p>
          )}
          <BucketList actor={actor} buckets={view.buckets} writable={view.writable} />
          <CreateBucketDialog actor={actor} create={view.create} />
          <DeleteBucketDialog actor={actor} remove={view.remove} />
        </>
      ) : null}
    </div>
  )
}

function BucketList({ actor, buckets, writable }: { actor: StorageBucketsActorRef; buckets: Bucket[]; writable: boolean }) {
  const ref = useSelector(actor, (snapshot) => snapshot.context.ref)
  const canDelete = useSelector(actor, (snapshot) => snapshot.can({ type: 'bucket.delete', id: '' }))
  if (buckets.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-neutral-300 p-8 text-center text-sm text-neutral-500 dark:border-neutral-700">
        {writable ? 'No buckets yet. Create one to store files such as images and documents.' : 'No buckets yet.'}
      </p>
    )
  }
  return (
    <Card>
      <div className="overflow-x-auto">
        <table aria-label="Buckets" className="min-w-full text-sm">
          <thead className="border-b border-neutral-200 text-left text-xs text-neutral-500 dark:border-neutral-800 dark:text-neutral-400">
            <tr>
              <th scope="col" className="px-5 py-2 font-medium">Name</th>
              <th scope="col" className="px-3 py-2 font-medium">Access</th>
              <th scope="col" className="px-3 py-2 font-medium">Allowed MIME types</th>
              <th scope="col" className="px-3 py-2 font-medium">File size limit</th>
              {writable ? <th scope="col" className="px-5 py-2 font-medium"><span className="sr-only">Actions</span></th> : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-neutral-100 dark:divide-neutral-800">
            {buckets.map((bucket) => (
              <tr key={bucket.id}>
                <th scope="row" className="px-5 py-3 text-left font-mono font-medium">
                  <Link href={href.project(ref, `storage/buckets/${encodeURIComponent(bucket.id)}`)} className="text-emerald-800 underline dark:text-emerald-400">
                    {bucket.name}
                  </Link>
                </th>
                <td className="px-3 py-3">
                  <span
                    className={cx(
                      'rounded-full px-2 py-0.5 text-xs',
                      bucket.public
                        ? 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200'
                        : 'bg-neutral-100 text-neutral-700 dark:bg-neutral-800 dark:text-neutral-300',
                    )}
                  >
                    {bucket.public ? 'Public' : 'Private'}
                  </span>
                </td>
                <td className="px-3 py-3 font-mono text-xs">{mimeTypesLabel(bucket.allowed_mime_types)}</td>
                <td className="px-3 py-3">{sizeLimitLabel(bucket.file_size_limit)}</td>
                {writable ? (
                  <td className="px-5 py-3 text-right">
                    <Button variant="ghost" aria-label={`Delete bucket ${bucket.name}`} disabled={!canDelete} onClick={() => actor.send({ type: 'bucket.delete', id: bucket.id })}>
                      Delete
                    </Button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  )
}

type CreateView = Extract<ReturnType<typeof selectStorageBucketsView>, { phase: 'loaded' }>['create']
type RemoveView = Extract<ReturnType<typeof selectStorageBucketsView>, { phase: 'loaded' }>['remove']

function CreateBucketDialog({ actor, create }: { actor: StorageBucketsActorRef; create: CreateView }) {
  const canSubmit = useSelector(actor, (snapshot) => snapshot.can({ type: 'create.submit' }))
  const canCancel = useSelector(actor, (snapshot) => snapshot.can({ type: 'create.cancel' }))
  return (
    <Modal open={create !== null} onClose={() => actor.send({ type: 'create.cancel' })} title="Create bucket">
      {create ? (
        <BucketForm
          draft={create.draft}
          errors={create.errors}
          submitting={create.submitting}
          error={create.error}
          canSubmit={canSubmit}
          canCancel={canCancel}
          onEdit={(draft) => actor.send({ type: 'create.edit', draft })}
          onSubmit={() => actor.send({ type: 'create.submit' })}
          onCancel={() => actor.send({ type: 'create.cancel' })}
        />
      ) : null}
    </Modal>
  )
}

function BucketForm({
  draft,
  errors,
  submitting,
  error,
  canSubmit,
  canCancel,
  onEdit,
  onSubmit,
  onCancel,
}: {
  draft: BucketDraft
  errors: DraftErrors
  submitting: boolean
  error: string | null
  canSubmit: boolean
  canCancel: boolean
  onEdit: (draft: Partial<BucketDraft>) => void
  onSubmit: () => void
  onCancel: () => void
}) {
  const id = useId()
  function submit(event: FormEvent) {
    event.preventDefault()
    onSubmit()
  }
  // An empty name is simply not ready yet (Create stays disabled); any other rule it breaks is said at once.
  const nameError = draft.name === '' ? undefined : errors.name
  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Create bucket">
      <Field id={`${id}-name`} label="Name" error={nameError}>
        <input
          {...fieldAria(`${id}-name`, { error: nameError })}
          className={inputClass}
          value={draft.name}
          readOnly={submitting}
          autoComplete="off"
          onChange={(event) => onEdit({ name: event.target.value })}
        />
      </Field>
      <div className="flex items-start gap-3">
        <input
          id={`${id}-public`}
          type="checkbox"
          className="mt-1 h-4 w-4 accent-emerald-600"
          checked={draft.public}
          disabled={submitting}
          aria-describedby={`${id}-public-hint`}
          onChange={(event) => onEdit({ public: event.target.checked })}
        />
        <div>
          <label htmlFor={`${id}-public`} className="text-sm font-medium">
            Public bucket
          </label>
          <p id={`${id}-public-hint`} className="text-xs text-neutral-500 dark:text-neutral-400">
            Anyone can read its files without a key. Uploading and deleting still follow your policies.
          </p>
        </div>
      </div>
      <BucketLimitFields id={id} draft={draft} errors={errors} busy={submitting} onEdit={onEdit} />
      {error ? (
        <InlineError>{error}</InlineError>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button onClick={onCancel} disabled={!canCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={!canSubmit}>
          {submitting ? 'Creating…' : 'Create bucket'}
        </Button>
      </div>
    </form>
  )
}

function DeleteBucketDialog({ actor, remove }: { actor: StorageBucketsActorRef; remove: RemoveView }) {
  const canConfirm = useSelector(actor, (snapshot) => snapshot.can({ type: 'delete.confirm' }))
  const canCancel = useSelector(actor, (snapshot) => snapshot.can({ type: 'delete.cancel' }))
  return (
    <Modal open={remove !== null} onClose={() => actor.send({ type: 'delete.cancel' })} title="Delete bucket">
      {remove ? (
        <div className="space-y-4">
          <p className="text-sm">
            Delete the bucket <span className="font-mono font-semibold">{remove.bucket.name}</span>? This cannot be undone. A bucket that still
            holds files cannot be deleted.
          </p>
          {remove.error ? (
            <InlineError>{remove.error}</InlineError>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button onClick={() => actor.send({ type: 'delete.cancel' })} disabled={!canCancel}>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => actor.send({ type: 'delete.confirm' })} disabled={!canConfirm}>
              {remove.submitting ? 'Deleting…' : 'Delete bucket'}
            </Button>
          </div>
        </div>
      ) : null}
    </Modal>
  )
}
