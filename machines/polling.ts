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
 * The beat: every `beat` the owning state is re-entered into `requesting`. `first` is where it starts: `requesting`
 * (a request at once) or `settled` (the first request one beat in). A poll whose requests live in phases (child
 * states that each hold a `requesting`) gives `to` a history state of the owner, so the beat keeps the phase and a
 * change of phase keeps the beat.
 */
export function onBeat<const TBeat extends string, const TFirst extends string = 'requesting', const TTo extends string = '.requesting'>(
  beat: TBeat,
  first: TFirst = 'requesting' as TFirst,
  to: TTo = '.requesting' as TTo,
) {
  return {
    after: { [beat]: { target: to, reenter: true } } as { [K in TBeat]: { target: TTo; reenter: true } },
    initial: first,
  }
}

/** The slot: a request unanswered after `timeout` is abandoned (its signal aborted) and waits for the next beat. */
export function slot<const TTimeout extends string>(timeout: TTimeout) {
  return { [timeout]: 'settled' } as { [K in TTimeout]: 'settled' }
}
