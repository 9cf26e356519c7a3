/**
 * The polling rule of every waiting screen: a fixed beat whose slot is the request's time-out.
 * - The beat: a request starts every `beat` ms exactly, counted from the start of the previous request — never
 *   from its answer — so "every N s" is exact and never drifts, however slow the answers are.
 * - The slot: inside its beat a request has its time-out (never more than the beat). Unanswered by then it is
 *   abandoned — leaving `requesting` aborts its signal — and the poll waits in `settled` for the next beat, which
 *   goes out on time. So two requests never overlap.
 * Failed, malformed and timed-out answers all just wait for the next beat.
 *
 * The shape, shared by every polling machine (the state that owns the beat is re-entered on each beat, which
 * restarts the beat's timer and starts the next request):
 * ```ts
 * polling: {
 *   ...onBeat('pollInterval'),                       // or onBeat('pollInterval', 'settled'): first request one beat in
 *   states: {
 *     requesting: { invoke: { ..., onDone: 'settled', onError: 'settled' }, after: slot('requestTimeout') },
 *     settled: {},
 *   },
 * },
 * ```
 */

/**
 * The beat: every `beat` the owning state is re-entered into `requesting`. `first` is where it starts:
 * `requesting` (a request at once) or `settled` (the first request one beat in).
 */
export function onBeat<const TBeat extends string>(beat: TBeat, first: 'requesting' | 'settled' = 'requesting') {
  return {
    after: { [beat]: { target: '.requesting', reenter: true } } as { [K in TBeat]: { target: '.requesting'; reenter: true } },
    initial: first,
  }
}

/** The slot: a request unanswered after `timeout` is abandoned (its signal aborted) and waits for the next beat. */
export function slot<const TTimeout extends string>(timeout: TTimeout) {
  return { [timeout]: 'settled' } as { [K in TTimeout]: 'settled' }
}
