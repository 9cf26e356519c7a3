/**
 * The Table Editor import's model: every state and transition, each state checked through the selector its view
 * reads (the progress bar's percent, the rows inserted, the bad rows); cancelling stops the upload.
 */
import { act } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { createActor, fromCallback } from 'xstate'
import { selectTableImportView, tableImportMachine, type ImportEvent, type UploadRequest } from '../machines/tableImport.machine'
import { REF } from '../tests/fixtures'
import { describePath, eventFor, keyByIncomingEdge, missingCoverage, modelOf, sendEdge } from './harness'
import { usePathClock } from './fakes'

const ev = eventFor(tableImportMachine)
const FILE = new Blob(['id,name\n1,Ada\n2,Bo\n'], { type: 'text/csv' })
const BAD = [{ line: 3, message: 'Line 3 has 1 field where the header has 2' }]

const model = modelOf(tableImportMachine, {
  input: { ref: REF, table: 'people' },
  events: (snapshot) => {
    const choose = ev({ type: 'file.chosen', file: FILE, name: 'people.csv' })
    if (snapshot.matches('uploading')) {
      return [
        ev({ type: 'upload.progressed', loaded: FILE.size / 2, total: FILE.size }),
        ev({ type: 'upload.finished', inserted: 2 }),
        ev({ type: 'upload.refused', message: '1 row of the CSV file is malformed; nothing was imported', badRows: BAD }),
        { type: 'upload.cancel' },
        choose,
      ]
    }
    return [choose]
  },
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(snapshot, event, `${JSON.stringify(previous?.value ?? null)}|${snapshot.context.loaded}`),
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

describe('table import model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(tableImportMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const uploads: Array<{ input: UploadRequest; stopped: boolean }> = []
      const uploadCsv = fromCallback<ImportEvent, UploadRequest>(({ input }) => {
        const upload = { input, stopped: false }
        uploads.push(upload)
        return () => {
          upload.stopped = true
        }
      })
      const actor = runPath(createActor(tableImportMachine.provide({ actors: { uploadCsv } }), { input: { ref: REF, table: 'people' } }).start())
      const view = () => selectTableImportView(actor.getSnapshot())
      await path.test({
        states: {
          idle: () => {
            expect(view()).toEqual({ phase: 'idle' })
            expect(uploads.every((u) => u.stopped)).toBe(true)
          },
          uploading: (snapshot) => {
            expect(view()).toEqual({ phase: 'uploading', fileName: 'people.csv', percent: Math.round((snapshot.context.loaded / FILE.size) * 100) })
            expect(uploads.at(-1)).toEqual({ input: { ref: REF, table: 'people', file: FILE }, stopped: false })
          },
          imported: () => expect(view()).toEqual({ phase: 'imported', fileName: 'people.csv', inserted: 2 }),
          refused: () =>
            expect(view()).toEqual({ phase: 'refused', fileName: 'people.csv', error: '1 row of the CSV file is malformed; nothing was imported', badRows: BAD }),
        },
        events: Object.fromEntries(
          ['file.chosen', 'upload.progressed', 'upload.finished', 'upload.refused', 'upload.cancel'].map((type) => [
            type,
            async (step: { event: { type: string } }) => act(() => sendEdge(actor, step.event)),
          ]),
        ),
      })
    })
  }
})
