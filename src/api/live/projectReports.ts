/** The live actor of a project's Reports page: its organization's daily usage for this one project. */
import { fromPromise } from 'xstate'
import { projectReportsMachine, type ReportRange } from '../../../machines/projectReports.machine'
import { getOrgDailyUsage } from '../calls/measured'

type Signal = { signal: AbortSignal }
const DAY_MS = 86_400_000

export const liveProjectReportsMachine = projectReportsMachine.provide({
  actors: {
    fetchProjectDailyUsage: fromPromise(
      async ({ input, signal }: Signal & { input: { ref: string; organizationSlug: string; days: ReportRange } }) => {
        const end = new Date()
        const start = new Date(end.getTime() - (input.days - 1) * DAY_MS)
        const query = { start: start.toISOString().slice(0, 10), end: end.toISOString(), project_ref: input.ref }
        return (await getOrgDailyUsage(input.organizationSlug, query, { signal })).days
      },
    ),
  },
})
