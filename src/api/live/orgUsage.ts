/** The live actor of the organization's usage page: usage, daily figures, projects and warnings, read side by side. */
import { fromPromise } from 'xstate'
import { orgUsageMachine, type OrgUsageData } from '../../../machines/orgUsage.machine'
import { getOrgDailyUsage } from '../calls/measured'
import { getOrgUsage } from '../calls/organizations'
import { getResourceWarnings, listProjects } from '../calls/projects'
import { billingPeriod } from './resourceWarnings'

type Signal = { signal: AbortSignal }

export const liveOrgUsageMachine = orgUsageMachine.provide({
  actors: {
    fetchOrgUsage: fromPromise(async ({ input, signal }: Signal & { input: { slug: string; projectRef: string } }): Promise<OrgUsageData> => {
      // The badge's period (the current month up to now), so the page and the badge agree.
      const period = billingPeriod()
      const query = { ...period, project_ref: input.projectRef || undefined }
      const [usage, daily, projects, warnings] = await Promise.all([
        getOrgUsage(input.slug, query, { signal }),
        getOrgDailyUsage(input.slug, query, { signal }),
        listProjects({ signal }),
        getResourceWarnings({ signal }),
      ])
      return {
        period,
        usages: usage.usages,
        days: daily.days,
        projects: projects.filter((p) => p.organization_slug === input.slug).map(({ ref, name }) => ({ ref, name })),
        warnings,
      }
    }),
  },
})
