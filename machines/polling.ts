/**
 * The polling rule of every waiting screen: a fixed beat whose slot is the request's time-out.
 * - The beat: a request starts every `beat` ms exactly, counted from the start of the previous request — never
 *   from its answer — so "every N s" is exact and never drifts, however slow the answers are.
 * - The slot: inside its beat a request has its time-out (never more than the beat). Unanswered by then it is
 *   abandoned — leaving `requesting` aborts its signal — and the poll waits in `settled` for the next beat, which
 *   goes out on time. So two requests never overlap.
 * Failed, malformed and timed-out answers all just wait for the next beat.
 * When the slot is the beat (time-out == beat), the beat itself is the time-out: use `onBeatAsSlot`, not `slot`.
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
import { stateIn } from 'xstate'

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

/**
 * The beat when the slot is the whole beat (time-out == beat): the beat itself is the time-out. A request still
 * unanswered when the next beat comes is abandoned there (re-entering the owner stops it, aborting its signal) and
 * `abandoned` (an action of the machine) records it, before the next request goes out on the beat.
 * Why not `slot(timeout)` with the same delay: both timers would fire at the same instant, the beat first (it was
 * scheduled first, on entry of the owner), and re-entering the owner cancels the slot's timer — so the time-out
 * would never be seen. `requesting` is the id of the requesting state ('#machine.polling.requesting').
 */
export function onBeatAsSlot<const TBeat extends string, const TAction extends string, const TFirst extends string = 'requesting', const TTo extends string = '.requesting'>(
  beat: TBeat,
  requesting: `#${string}`,
  abandoned: TAction,
  first: TFirst = 'requesting' as TFirst,
  to: TTo = '.requesting' as TTo,
) {
  const transitions = [
    { guard: stateIn(requesting), target: to, reenter: true as const, actions: abandoned },
    { target: to, reenter: true as const },
  ] as const
  return {
    after: { [beat]: transitions } as { [K in TBeat]: typeof transitions },
    initial: first,
  }
}
