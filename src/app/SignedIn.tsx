import { useActorRef, useSelector } from '@xstate/react'
import type { ComponentProps } from 'react'
import { Redirect, Route, Switch, useRoute } from 'wouter'
import { selectSessionPhase } from '../../machines/session.machine'
import { SessionCheckFailed, SessionChecking } from '../views/auth/SessionScreens'
import { FeaturePreviewsDialog } from '../views/layout/FeaturePreviewsDialog'
import { ShellFrame } from '../views/layout/ShellFrame'
import type { ProjectsPage as ProjectsPageView } from '../views/projects/ProjectsPage'
import { ProjectListContext, useShell, type NavBarActorRef } from '../views/shell/contexts'
import { lazyComponent } from '../views/shell/lazy'
import { useAppLogic } from '../views/shell/logic'
import { Loading } from '../views/shell/ui'
import { inspectOption } from './inspector'
import { NestedRoute } from './NestedRoute'
import { ProjectLayout } from './ProjectLayout'
import { href } from '../href'

const pageLoading = <Loading label="Loading page…" />

// The routes off the project path (account, organizations, joining, support) load on demand: ./OtherRoutes.tsx.
const OtherRoutes = lazyComponent<{ navBar: NavBarActorRef }>(() => import('./OtherRoutes').then((m) => ({ default: m.OtherRoutes })), pageLoading)

// The project list loads when shown, off the first load of a project page.
const ProjectsPage = lazyComponent<ComponentProps<typeof ProjectsPageView>>(
  () => import('../views/projects/ProjectsPage').then((m) => ({ default: m.ProjectsPage })),
  pageLoading,
)

const PROJECTS_PATH = '/projects'
/** The project's pages: /project/{ref} and its table's paths under it (src/views/routes/projectRoutes.tsx). */
const PROJECT_PATH = '/project/:ref'

/** Signed-in routes: redirect to /sign-in when signed out; otherwise the project list and the shell around pages. */
export function SignedIn() {
  const { session } = useShell()
  const phase = useSelector(session, selectSessionPhase)
  // The same paths the shell routes below: which of its three branches the page is.
  const [onProjects] = useRoute(PROJECTS_PATH)
  const [onProject] = useRoute(`${PROJECT_PATH}/*?`)
  if (phase === 'checking') {
    // The page's code loads while the session is checked: code that arrives after the check would show its loading
    // fallback first, and React then holds the page back (its Suspense throttle, ~300 ms) even when the code and the
    // data are there.
    if (onProjects) void ProjectsPage.preload()
    else if (!onProject) void OtherRoutes.preload()
    return <SessionChecking />
  }
  if (phase === 'checkFailed') return <SessionCheckFailed session={session} />
  if (phase === 'signedOut') return <Redirect to={href.signIn()} replace />
  return <SignedInShell />
}

function SignedInShell() {
  const logic = useAppLogic()
  const { previews } = useShell()
  const projectList = useActorRef(logic.projectList, inspectOption())
  const navBar = useActorRef(logic.navBar, inspectOption())

  return (
    <ProjectListContext.Provider value={projectList}>
      <Switch>
        <Route path={PROJECTS_PATH}>
          <ShellFrame navBar={navBar} crumbs={[{ label: 'Projects' }]}>
            <ProjectsPage projectList={projectList} />
          </ShellFrame>
        </Route>
        <NestedRoute path={PROJECT_PATH} nest>
          {(params, section) => <ProjectLayout key={params.ref} projectRef={params.ref ?? ''} section={section} navBar={navBar} />}
        </NestedRoute>
        {/* Every other page (account, organizations, joining, support, not found): their own chunk. */}
        <Route>
          <OtherRoutes navBar={navBar} />
        </Route>
      </Switch>
      <FeaturePreviewsDialog previews={previews} />
    </ProjectListContext.Provider>
  )
}
