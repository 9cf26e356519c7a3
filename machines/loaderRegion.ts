/**
 * One read as a region of a parallel state, for a screen that reads several things side by side, each with its own
 * loading / failed state and retry, so one failing never blanks the others:
 * `loading` invokes the read (the invoke's id is its actor's name, its input the context's `ref`), `loaded` holds the
 * answer, `failed` waits for the region's retry event. A read unanswered after the machine's `timeout` delay is
 * abandoned (leaving `loading` aborts its signal) and stored as a failure (TIMED_OUT). Optional parts:
 * - `accepts` + `reject`: an answer the guard refuses is a failure too, stored by `reject`;
 * - `readRetrying`: failures the machine retries by itself (its guard, counter and delay, in `waitingToRetry`) before
 *   resting in `failed`; the retry event starts the count again;
 * - `onlyPermitted`: a guard read on entry (`checking`); without it the region rests in `notPermitted` and never reads.
 * Every action and guard is one the machine names in its setup: `store`, `reject` and `accepts` take `{ output }`,
 * `storeError` and the retry guard take `{ error }`. So the region is checked against the machine that uses it: its
 * events and delays by the type arguments of `loaderRegions`, the rest by the machine's own config types.
 */

export const TIMED_OUT = 'The request timed out'

const outputParams = <TOutput>({ event }: { event: { output: TOutput } }): { output: TOutput } => ({ output: event.output })
const errorParams = ({ event }: { event: { error: unknown } }) => ({ error: event.error })
const timedOut = { error: new Error(TIMED_OUT) }
const refInput = ({ context }: { context: { ref: string } }) => ({ ref: context.ref })

interface ReadNames<TEventType extends string, TDelay extends string, TSrc, TStore, TStoreError> {
  /** The read: the actor's name and the invoke's id. */
  src: TSrc
  store: TStore
  storeError: TStoreError
  /** The event the person sends to read again after a failure. */
  retryEvent: TEventType
  /** The delay after which a read under way is given up. */
  timeout: TDelay
}

interface LoaderNames<TEventType extends string, TDelay extends string, TSrc, TStore, TStoreError, TAccepts, TReject>
  extends ReadNames<TEventType, TDelay, TSrc, TStore, TStoreError> {
  accepts?: TAccepts
  reject?: TReject
}

interface RetryNames<TDelay extends string, TGuard, TCount, TReset> {
  /** Whether the machine reads again after a failure (`{ error }`). */
  guard: TGuard
  /** Counts a retry. */
  count: TCount
  /** Starts the count again (the person asked). */
  reset: TReset
  /** How long to wait before reading again. */
  delay: TDelay
}

/**
 * The region factories of a machine whose events' types are `TEventType` and whose delays are `TDelay`:
 * `const { read } = loaderRegions<Event['type'], Delay>()`, then `schema: read({ src: 'fetchRestSchema', … })`.
 */
export function loaderRegions<TEventType extends string, TDelay extends string>() {
  /** The state that reads: its answer and its failures (an error, a time-out) take the transitions given. */
  function reading<TSrc extends string, TOnDone, TOnError, TOnTimeout>(
    names: { src: TSrc; timeout: TDelay },
    transitions: { done: TOnDone; error: TOnError; timeout: TOnTimeout },
  ) {
    return {
      invoke: { id: names.src, src: names.src, input: refInput, onDone: transitions.done, onError: transitions.error },
      after: { [names.timeout]: transitions.timeout },
    }
  }

  const loadedWith = <TStore extends string>(store: TStore) => ({ target: 'loaded' as const, actions: { type: store, params: outputParams } })

  const failedWith = <TStoreError extends string, TParams>(storeError: TStoreError, params: TParams) => ({
    target: 'failed' as const,
    actions: { type: storeError, params },
  })

  return {
    /** A read: loading → loaded | failed (an error, a time-out, an answer `accepts` refuses); failed → loading on the retry event. */
    read<TSrc extends string, TStore extends string, TStoreError extends string, TAccepts extends string = never, TReject extends string = never>(
      names: LoaderNames<TEventType, TDelay, TSrc, TStore, TStoreError, TAccepts, TReject>,
    ) {
      const { accepts, reject } = names
      return {
        initial: 'loading' as const,
        states: {
          loading: reading(names, {
            done:
              accepts && reject
                ? [{ guard: { type: accepts, params: outputParams }, ...loadedWith(names.store) }, { target: 'failed' as const, actions: { type: reject, params: outputParams } }]
                : loadedWith(names.store),
            error: failedWith(names.storeError, errorParams),
            timeout: failedWith(names.storeError, timedOut),
          }),
          failed: { on: { [names.retryEvent]: 'loading' as const } },
          loaded: {},
        },
      }
    },

    /** A read whose failures the machine retries by itself (while `retry.guard` allows) before resting in `failed`. */
    readRetrying<TSrc extends string, TStore extends string, TStoreError extends string, TGuard extends string, TCount extends string, TReset extends string>(
      names: ReadNames<TEventType, TDelay, TSrc, TStore, TStoreError> & { retry: RetryNames<TDelay, TGuard, TCount, TReset> },
    ) {
      const { retry, storeError } = names
      const failures = <TParams>(params: TParams) => [
        { guard: { type: retry.guard, params }, target: 'waitingToRetry' as const, actions: [{ type: storeError, params }, retry.count] },
        failedWith(storeError, params),
      ]
      return {
        initial: 'loading' as const,
        states: {
          loading: reading(names, { done: loadedWith(names.store), error: failures(errorParams), timeout: failures(timedOut) }),
          waitingToRetry: { after: { [retry.delay]: 'loading' as const } },
          failed: { on: { [names.retryEvent]: { target: 'loading' as const, actions: retry.reset } } },
          loaded: {},
        },
      }
    },

    /** A region read only when `permitted` holds on entry; otherwise it rests in `notPermitted`. */
    onlyPermitted<TPermitted extends string, TStates extends { loading: unknown }>(permitted: TPermitted, region: { states: TStates }) {
      return {
        initial: 'checking' as const,
        states: {
          checking: { always: [{ guard: permitted, target: 'loading' as const }, { target: 'notPermitted' as const }] },
          /** The person has no part of the screen that shows it: never read. */
          notPermitted: {},
          ...region.states,
        },
      }
    },
  }
}
