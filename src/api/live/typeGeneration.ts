/** The live actor and action of 'Generate types': the Management API's types, saved by the browser as a file. */
import { fromPromise } from 'xstate'
import { typeGenerationMachine } from '../../../machines/typeGeneration.machine'
import { getTypescriptTypes } from '../calls/database'

type Signal = { signal: AbortSignal }

/**
 * Saves `content` as a download named `fileName`: a Blob behind an object URL, clicked through a detached anchor
 * with the `download` attribute. The URL is released once the click has handed the Blob to the browser.
 */
export function saveAsFile({ fileName, content }: { fileName: string; content: string }) {
  const url = URL.createObjectURL(new Blob([content], { type: 'text/typescript;charset=utf-8' }))
  const anchor = document.createElement('a')
  anchor.href = url
  anchor.download = fileName
  anchor.rel = 'noopener'
  anchor.style.display = 'none'
  document.body.append(anchor)
  try {
    anchor.click()
  } finally {
    anchor.remove()
    // Released on the next task: revoking in the same task can cancel the download in some browsers.
    setTimeout(() => URL.revokeObjectURL(url), 0)
  }
}

export const liveTypeGenerationMachine = typeGenerationMachine.provide({
  actors: {
    generateTypes: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => getTypescriptTypes(input.ref, { signal })),
  },
  actions: {
    downloadFile: (_, params) => saveAsFile(params),
  },
})
