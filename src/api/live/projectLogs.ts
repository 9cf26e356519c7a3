/** The live actor of a project's Logs page: its REST request log, newest first. */
import { fromPromise } from 'xstate'
import { LOG_PAGE, projectLogsMachine, type LogFilter } from '../../../machines/projectLogs.machine'
import { getProjectRequestLog } from '../calls/measured'

type Signal = { signal: AbortSignal }

export const liveProjectLogsMachine = projectLogsMachine.provide({
  actors: {
    fetchRequestLog: fromPromise(async ({ input, signal }: Signal & { input: { ref: string; filter: LogFilter } }) => {
      const query = { status: input.filter === 'all' ? undefined : input.filter, limit: LOG_PAGE }
      return (await getProjectRequestLog(input.ref, query, { signal })).entries
    }),
  },
})
