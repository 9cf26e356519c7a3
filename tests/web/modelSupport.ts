/** Helpers of the shell's model tests: promise actors the test settles step by step. */
import { act } from '@testing-library/react'
import { fromPromise, type ActorLogic, type AnyMachineSnapshot, type AnyStateMachine, type EventObject } from 'xstate'
import { TestModel, type TestModelOptions } from 'xstate/graph'

interface Pending<TOutput, TInput> {
  input: TInput
  resolve: (output: TOutput) => void
  reject: (error: unknown) => void
}

/** A promise actor whose every run waits until the test resolves or rejects it. */
export function deferredActor<TOutput, TInput = unknown>(name: string) {
  const pending: Array<Pending<TOutput, TInput>> = []
  const take = () => {
    const next = pending.shift()
    if (!next) throw new Error(`${name}: no pending run`)
    return next
  }
  return {
    logic: fromPromise<TOutput, TInput>(({ input }) => new Promise<TOutput>((resolve, reject) => pending.push({ input, resolve, reject }))),
    pending,
    async resolve(output: TOutput) {
      const run = take()
      await act(async () => run.resolve(output))
    },
    async reject(error: unknown) {
      const run = take()
      await act(async () => run.reject(error))
    },
  }
}

/** An error as the HTTP client raises it, with its status. */
export const apiError = (message: string, status: number | null) => Object.assign(new Error(message), { status })

/** stateMatcher for TestModel: state keys are state values ('signedOut.rejected'). */
export const matchesStateKey = (snapshot: { matches: (value: never) => boolean }, key: string) => snapshot.matches(key as never)

/**
 * A TestModel over any machine, typed loosely: the events of a model include the machine's internal ones
 * (`xstate.done.actor.*`, `xstate.after.*`), which its own event type does not list.
 */
export function testModelOf(machine: AnyStateMachine, options: Partial<TestModelOptions<AnyMachineSnapshot, EventObject, unknown>>) {
  return new TestModel<AnyMachineSnapshot, EventObject, unknown>(machine as unknown as ActorLogic<AnyMachineSnapshot, EventObject, unknown>, options)
}
