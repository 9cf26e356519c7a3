import { fromPromise } from 'xstate'
import type { ProjectStatus } from '../../src/contracts/common'

/** A scripted answer: a status, a failure, or no answer at all until the request is aborted. */
export type Answer = ProjectStatus | Error | 'hang'

/**
 * A project status endpoint answering from a script (then `fallback`), recording when each request started and
 * when an unanswered one was aborted.
 */
export function scriptedStatus(answers: Answer[], fallback: ProjectStatus) {
  const requests: number[] = []
  const aborted: number[] = []
  const actor = fromPromise<{ status: ProjectStatus }, { ref: string }>(async ({ signal }) => {
    requests.push(Date.now())
    const next = answers.shift() ?? fallback
    if (next === 'hang') {
      return new Promise<never>((_, reject) =>
        signal.addEventListener('abort', () => {
          aborted.push(Date.now())
          reject(new Error('aborted'))
        }),
      )
    }
    if (next instanceof Error) throw next
    return { status: next }
  })
  return { actor, requests, aborted }
}
