import { useSelector } from '@xstate/react'
import { useMemo, type ComponentProps, type ReactNode } from 'react'
import { Redirect, Route, Router, Switch, type BaseLocationHook, type BaseSearchHook } from 'wouter'
import { selectSessionPhase } from '../../machines/session.machine'
import { config } from '../config'
import { SessionCheckFailed, SessionChecking } from '../views/auth/SessionScreens'
import type { SignInPage as SignInPageView } from '../views/auth/SignInPage'
import { lazyComponent } from '../views/shell/lazy'
import { LazyNotFound } from '../views/routes/LazyNotFound'
import { LoadFailed } from '../views/shell/LoadFailed'
import { Loading } from '../views/shell/ui'
import { BuildFlagsContext, useShell, type BuildFlags } from '../views/shell/contexts'
import { AppLogicContext, type AppLogic } from '../views/shell/logic'
import { LIVE_LOGIC } from './logic'
import { ShellProviders } from './ShellProviders'
import { SignedIn } from './SignedIn'
import { href } from '../href'

// The sign-in page loads when shown: a signed-in first load never needs it.
const SignInPage = lazyComponent<ComponentProps<typeof SignInPageView>>(
  () => import('../views/auth/SignInPage').then((m) => ({ default: m.SignInPage })),
  <Loading label="Loading page…" />,
)
// Nor the sign-up page (its machine loads beside it), nor the page of an address that leads nowhere.
const SignUpScreen = lazyComponent(() => import('./SignUpScreen'), <Loading label="Loading page…" />, (logic) => [logic.signUp])

/** Paths served by the signed-in area; anything else is a 404 whatever the session. */
const SIGNED_IN_ROUTES = /^\/(projects|account|new|org|project|support|join)(\/.*)?$/

export interface AppProps {
  /** A wouter location (tests use memoryLocation); the browser's by default. */
  location?: { hook: BaseLocationHook; searchHook?: BaseSearchHook }
  /** Machines to run instead of the live ones (tests hand in versions with other actors). */
  logic?: Partial<AppLogic>
  flags?: BuildFlags
}

export function App({ location, logic, flags = config }: AppProps) {
  const routerProps = location ? { hook: location.hook, ...(location.searchHook ? { searchHook: location.searchHook } : {}) } : {}
  const machines = useMemo(() => ({ ...LIVE_LOGIC, ...logic }), [logic])
  return (
    <BuildFlagsContext.Provider value={flags}>
      <AppLogicContext.Provider value={machines}>
        <ShellProviders>
          <LoadFailed>
            <Router {...routerProps}>
              <AppRoutes />
            </Router>
          </LoadFailed>
        </ShellProviders>
      </AppLogicContext.Provider>
    </BuildFlagsContext.Provider>
  )
}

function AppRoutes() {
  return (
    <Switch>
      <Route path="/">
        <Redirect to={href.projects()} replace />
      </Route>
      <Route path="/sign-in">
        <SignInRoute />
      </Route>
      <Route path="/sign-up">
        <SignUpRoute />
      </Route>
      <Route path={SIGNED_IN_ROUTES}>
        <SignedIn />
      </Route>
      <Route>
        <Centered>
          <LazyNotFound />
        </Centered>
      </Route>
    </Switch>
  )
}

function SignInRoute() {
  const { session } = useShell()
  const phase = useSelector(session, selectSessionPhase)
  if (phase === 'checking') return <SessionChecking />
  if (phase === 'checkFailed') return <SessionCheckFailed session={session} />
  if (phase === 'signedIn') return <Redirect to={href.projects()} replace />
  return <SignInPage session={session} />
}

function SignUpRoute() {
  const { session } = useShell()
  const phase = useSelector(session, selectSessionPhase)
  if (phase === 'checking') return <SessionChecking />
  if (phase === 'checkFailed') return <SessionCheckFailed session={session} />
  if (phase === 'signedIn') return <Redirect to={href.projects()} replace />
  return <SignUpScreen />
}

function Centered({ children }: { children: ReactNode }) {
  return <div className="min-h-screen bg-neutral-50 dark:bg-neutral-950">{children}</div>
}
