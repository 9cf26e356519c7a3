import { act, fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, fromCallback, type SnapshotFrom } from 'xstate'
import { storageUploadMachine, type UploadEvent, type UploadInput, type UploadTarget } from '../machines/storageUpload.machine'
import { UploadRow } from '../src/views/project/storage/StorageExplorerPage'
import { describePath, eventFor, keyByIncomingEdge, missingCoverage, modelOf } from './harness'
import { usePathClock } from './fakes'

const ev = eventFor(storageUploadMachine)
const FILE = new File(['x'.repeat(1000)], 'photo.png', { type: 'image/png' })
const CONNECTION = { url: 'http://127.0.0.1/p/ref/storage/v1', key: 'service' }
const NEW: UploadInput = { connection: CONNECTION, bucket: 'photos', path: 'trips/photo.png', file: FILE, exists: false }
/** The folder already lists a file of that name. */
const TAKEN: UploadInput = { ...NEW, exists: true }
const targetOf = (input: UploadInput, upsert: boolean): UploadTarget => ({ connection: input.connection, bucket: input.bucket, path: input.path, file: input.file, upsert })

const contextOf = (snapshot: SnapshotFrom<typeof storageUploadMachine>) => snapshot.context

// The walk has no parent to tell of a stored file: its `tellStored` is a no-op there (the paths below spy on it).
const modelFor = (input: UploadInput) =>
  modelOf(storageUploadMachine.provide({ actions: { tellStored: () => {} } }), {
    input,
    events: (snapshot) => {
      const c = contextOf(snapshot)
      if (snapshot.matches('conflict')) return [ev({ type: 'upload.overwrite' }), ev({ type: 'upload.cancel' })]
      if (snapshot.matches('uploading')) {
        // Progress once per run (a second report would only move the bar), then the run's endings; a name taken
        // meanwhile only without upsert (with it the service replaces).
        return [
          ...(c.loaded > 0 ? [] : [ev({ type: 'upload.progressed', loaded: 420, total: 1000 })]),
          ev({ type: 'upload.finished' }),
          ev({ type: 'upload.failed', message: 'mime type image/png is not supported' }),
          ...(c.upsert || input.exists ? [] : [ev({ type: 'upload.failed', message: 'The resource already exists', conflict: true })]),
          ev({ type: 'upload.cancel' }),
        ]
      }
      if (snapshot.matches('failed')) return [ev({ type: 'upload.retry' })]
      return []
    },
    serializeState: (snapshot, event) =>
      keyByIncomingEdge(snapshot, event, JSON.stringify({ loaded: contextOf(snapshot).loaded, error: contextOf(snapshot).error, upsert: contextOf(snapshot).upsert })),
  })
const paths = [...modelFor(NEW).getShortestPaths().map((path) => ({ path, input: NEW })), ...modelFor(TAKEN).getShortestPaths().map((path) => ({ path, input: TAKEN }))]

const runPath = usePathClock()

/** A fake transfer: each run is recorded with the way to report from it and whether it was cancelled. */
function fakeTransfer() {
  const runs: Array<{ input: UploadTarget; report: (event: { type: string; [key: string]: unknown }) => void; cancelled: boolean }> = []
  const logic = fromCallback<UploadEvent, UploadTarget>(({ input, sendBack }) => {
    const run = { input, report: sendBack, cancelled: false }
    runs.push(run)
    return () => {
      run.cancelled = true
    }
  })
  return { logic, runs, current: () => runs[runs.length - 1] }
}

describe('storage upload model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(storageUploadMachine, paths.map(({ path }) => path))).toEqual({ states: [], transitions: [] })
  })

  for (const { path, input } of paths) {
    it(`${input.exists ? '(name listed) ' : ''}${describePath(path)}`, async () => {
      const transfer = fakeTransfer()
      const stored = vi.fn()
      const actor = runPath(createActor(storageUploadMachine.provide({ actors: { sendFile: transfer.logic }, actions: { tellStored: stored } }), { input }).start())
      render(
        <ul>
          <UploadRow upload={actor} />
        </ul>,
      )
      const bar = () => screen.getByRole('progressbar', { name: 'Upload of photo.png' })

      await path.test({
        states: {
          conflict: (snapshot) => {
            expect(screen.getByText('Name taken')).toBeInTheDocument()
            expect(screen.getByText('A file named photo.png already exists in this folder.')).toBeInTheDocument()
            expect(screen.getByRole('button', { name: 'Overwrite photo.png' })).toBeEnabled()
            expect(screen.getByRole('button', { name: 'Skip upload of photo.png' })).toBeEnabled()
            // A listed name sends nothing before the choice; a name taken meanwhile was sent once, without upsert.
            expect(transfer.runs.map((run) => run.input)).toEqual(snapshot.context.exists ? [] : [targetOf(input, false)])
            expect(stored).not.toHaveBeenCalled()
          },
          uploading: (snapshot) => {
            const { loaded, upsert } = contextOf(snapshot)
            const percent = Math.floor((loaded / 1000) * 100)
            expect(bar()).toHaveAttribute('value', String(percent))
            expect(screen.getByText(`Uploading ${percent}%`)).toBeInTheDocument()
            expect(screen.getByRole('button', { name: 'Cancel upload of photo.png' })).toBeEnabled()
            // x-upsert only once the person chose to overwrite.
            expect(transfer.current().input).toEqual(targetOf(input, upsert))
            expect(transfer.current().cancelled).toBe(false)
            expect(stored).not.toHaveBeenCalled()
          },
          failed: () => {
            expect(screen.getByText('Failed')).toBeInTheDocument()
            expect(screen.getByRole('alert')).toHaveTextContent('mime type image/png is not supported')
            expect(screen.getByRole('button', { name: 'Retry upload of photo.png' })).toBeEnabled()
            expect(screen.queryByRole('button', { name: 'Cancel upload of photo.png' })).toBeNull()
          },
          stored: () => {
            expect(bar()).toHaveAttribute('value', '100')
            expect(screen.getByText('Uploaded')).toBeInTheDocument()
            expect(stored).toHaveBeenCalledTimes(1)
            expect(screen.queryByRole('button')).toBeNull()
          },
          cancelled: () => {
            expect(screen.getByText('Cancelled')).toBeInTheDocument()
            // Leaving `uploading` stopped the transfer: nothing more is sent (a skipped listed name sent nothing).
            if (transfer.runs.length > 0) expect(transfer.current().cancelled).toBe(true)
            expect(stored).not.toHaveBeenCalled()
            expect(screen.queryByRole('button')).toBeNull()
          },
        },
        events: {
          'upload.progressed': async (step) => act(() => transfer.current().report({ type: 'upload.progressed', loaded: step.event.loaded, total: step.event.total })),
          'upload.finished': async () => act(() => transfer.current().report({ type: 'upload.finished' })),
          'upload.failed': async (step) => act(() => transfer.current().report({ type: 'upload.failed', message: step.event.message, conflict: step.event.conflict })),
          'upload.overwrite': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Overwrite photo.png' }))
          },
          'upload.cancel': async () => {
            if (actor.getSnapshot().matches('conflict')) fireEvent.click(screen.getByRole('button', { name: 'Skip upload of photo.png' }))
            else fireEvent.click(screen.getByRole('button', { name: 'Cancel upload of photo.png' }))
          },
          'upload.retry': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Retry upload of photo.png' }))
          },
        },
      })
    })
  }
})
