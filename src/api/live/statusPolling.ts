/** The project status read that the building, pausing and restoring flows poll. */
import { fromPromise } from 'xstate'
import { getProjectStatus } from '../calls/projects'

export const fetchProjectStatus = fromPromise(({ input, signal }: { input: { ref: string }; signal: AbortSignal }) =>
  getProjectStatus(input.ref, { signal }),
)
