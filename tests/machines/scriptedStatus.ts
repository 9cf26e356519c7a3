import { fromPromise } from 'xstate'
import type { ProjectStatus } from '../../src/contracts/common'

/**
 * A scripted answer: an output, a failure, no answer at all until the request is aborted ('hang'), or an output or
 * failure that comes only `after` ms (a slow answer; aborted before then, it never comes).
 */
export type Scripted<TOutput> = TOutput | Error | 'hang' | { after: number; answer: TOutput | Error }

/** A slow answer: `answer` comes `ms` after the request started. */
export const slow = <TOutput>(ms: number, answer: TOutput | Error) => ({ after: ms, answer })

const isSlow = <TOutput>(next: Scripted<TOutput>): next is { after: number; answer: TOutput | Error } =>
  typeof next === 'object' && next !== null && 'after' in next && 'answer' in next

/**
 * An endpoint answering from a script (then `fallback`), recording when each request started, when an unanswered
 * one was aborted, and the input of each. Under fake timers the times are exact.
 */
export function scriptedEndpoint<TOutput, TInput = unknown>(answers: Array<Scripted<TOutput>>, fallback: Scripted<TOutput>) {
  const requests: number[] = []
  const aborted: number[] = []
  const inputs: TInput[] = []
  const actor = fromPromise<TOutput, TInput>(({ signal, input }) => {
    requests.push(Date.now())
    inputs.push(input)
    const next = answers.length > 0 ? answers.shift()! : fallback
    const onAbort = (reject: (error: Error) => void) =>
      signal.addEventListener('abort', () => {
        aborted.push(Date.now())
        reject(new Error('aborted'))
      })
    if (next === 'hang') return new Promise<never>((_, reject) => onAbort(reject))
    if (isSlow(next)) {
      return new Promise<TOutput>((resolve, reject) => {
        const timer = setTimeout(() => (next.answer instanceof Error ? reject(next.answer) : resolve(next.answer as TOutput)), next.after)
        onAbort((error) => {
          clearTimeout(timer)
          reject(error)
        })
      })
    }
    if (next instanceof Error) return Promise.reject(next)
    return Promise.resolve(next as TOutput)
  })
  return { actor, requests, aborted, inputs }
}

/** A scripted answer of the project status endpoint. */
export type Answer = ProjectStatus | Error | 'hang' | { after: number; answer: ProjectStatus | Error }

/** The project status endpoint, scripted: statuses stand for `{ status }` answers. */
export function scriptedStatus(answers: Answer[], fallback: ProjectStatus) {
  const wrap = (answer: Answer): Scripted<{ status: ProjectStatus }> =>
    typeof answer === 'string' && answer !== 'hang'
      ? { status: answer }
      : isSlow(answer)
        ? { after: answer.after, answer: typeof answer.answer === 'string' ? { status: answer.answer } : answer.answer }
        : (answer as Error | 'hang')
  return scriptedEndpoint<{ status: ProjectStatus }, { ref: string }>(answers.map(wrap), { status: fallback })
}
