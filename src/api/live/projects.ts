/**
 * The live actors of the projects part: the project list (the organizations and their projects, read together), and
 * the project status flow — the project read, and every lifecycle flow it runs as a child.
 * The flows' code (./lifecycle.ts) is a chunk of its own, loaded by the project read whenever the project may show
 * one of their screens (mayShowLifecyclePage), before the machine routes to it; a healthy project never loads it.
 * Until then each flow is a stand-in that forwards to the loaded logic.
 */
import { fromPromise } from 'xstate'
import type { LifecycleChildren } from '../../../machines/lifecycleChildren'
import { mayShowLifecyclePage } from '../../../machines/projectPage'
import { projectListMachine } from '../../../machines/projectList.machine'
import { projectStatusMachine } from '../../../machines/projectStatus.machine'
import { listOrganizations } from '../calls/organizations'
import { getProject, listProjects } from '../calls/projects'

export const liveProjectListMachine = projectListMachine.provide({
  actors: {
    fetchProjects: fromPromise(async ({ signal }: { signal: AbortSignal }) => {
      const [organizations, projects] = await Promise.all([listOrganizations({ signal }), listProjects({ signal })])
      return { organizations, projects }
    }),
  },
})

let loaded: LifecycleChildren | null = null
let loading: Promise<LifecycleChildren> | null = null

/** Whether the lifecycle flows' code has loaded (for the tests of when it loads). */
export const lifecycleFlowsLoaded = () => loaded !== null

/** Loads the lifecycle flows' code once (a failed load is tried again next time). */
export function loadLifecycleFlows(): Promise<LifecycleChildren> {
  loading ??= import('./lifecycle').then(
    (module) => (loaded = module.liveLifecycleChildren),
    (error: unknown) => {
      loading = null
      throw new Error(`Failed to load the project's screens: ${error instanceof Error ? error.message : String(error)}`)
    },
  )
  return loading
}

/**
 * Starts loading the lifecycle flows' code ahead of the answer that will need it (a dialog about to pause or upgrade
 * the project). A failed load is tried again by the project read, which shows the failure if it persists.
 */
export function preloadLifecycleFlows(): void {
  loadLifecycleFlows().catch(() => {})
}

/** A flow's logic that forwards everything to the loaded one (the machine invokes it only once it is loaded). */
function onceLoaded<K extends keyof LifecycleChildren>(name: K): LifecycleChildren[K] {
  const logic = () => {
    if (!loaded) throw new Error(`the ${name} flow was started before its code loaded`)
    return loaded[name] as unknown as Record<PropertyKey, unknown>
  }
  return new Proxy({} as LifecycleChildren[K], {
    get(_, property) {
      const target = logic()
      const value = target[property]
      return typeof value === 'function' ? value.bind(target) : value
    },
    has: (_, property) => property in logic(),
  })
}

export const liveProjectStatusMachine = projectStatusMachine.provide({
  actors: {
    fetchProject: fromPromise(async ({ input, signal }: { input: { ref: string }; signal: AbortSignal }) => {
      const project = await getProject(input.ref, { signal })
      if (!loaded && mayShowLifecyclePage(project)) await loadLifecycleFlows()
      return project
    }),
    building: onceLoaded('building'),
    paused: onceLoaded('paused'),
    pausing: onceLoaded('pausing'),
    restoring: onceLoaded('restoring'),
    upgrading: onceLoaded('upgrading'),
    connecting: onceLoaded('connecting'),
  },
})
