import type { ReactNode } from 'react'
import { Route, Router, useLocation, useRouter, type DefaultParams } from 'wouter'

/**
 * wouter's `<Route nest>` for a part of the site (a project, an organization): the nest matches the part's prefix and
 * hands its parameters and the path under it to the part's own table. Inside, every link and redirect stays absolute
 * (src/href.ts builds them for machines and views alike), so the subtree gets the root router back: a nested base
 * would prefix the project's address to links that already carry it.
 */
export function NestedRoute({
  path,
  children,
}: {
  path: string
  /** Always set: a `<Switch>` reads it to match the prefix as a nest (the route inside matches again). */
  nest: true
  children: (params: DefaultParams, rest: string) => ReactNode
}) {
  const root = useRouter()
  return (
    <Route path={path} nest>
      {(params) => (
        <Rest>
          {(rest) => (
            <Router hook={root.hook} searchHook={root.searchHook} hrefs={root.hrefs}>
              {children(params, rest)}
            </Router>
          )}
        </Rest>
      )}
    </Route>
  )
}

/** The path under the nest, without its slashes at either end ('' at the prefix itself). */
function Rest({ children }: { children: (rest: string) => ReactNode }) {
  const [location] = useLocation()
  return children(location.replace(/^\/+|\/+$/g, ''))
}
