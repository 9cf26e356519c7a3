/**
 * Components whose code loads only when first shown (dialogs, menus, screens off the first one), so the first
 * load of a page carries only what it renders. Once loaded, a component renders synchronously, without a Suspense
 * pass. A screen gives a fallback (its loading treatment) so it never flashes blank while its chunk loads.
 */
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react'

const preloaders: Array<() => Promise<void>> = []

export function lazyComponent<P extends object>(load: () => Promise<{ default: ComponentType<P> }>, fallback: ReactNode = null) {
  let loaded: ComponentType<P> | null = null
  let pending: Promise<void> | null = null
  const preload = () =>
    (pending ??= load().then((module) => {
      loaded = module.default
    }))
  preloaders.push(preload)
  const Lazy = lazy(() => preload().then(() => ({ default: loaded! })))
  function LazyComponent(props: P) {
    const Loaded = loaded
    return Loaded ? (
      <Loaded {...props} />
    ) : (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    )
  }
  LazyComponent.preload = preload
  return LazyComponent
}

/** Loads every lazy component declared so far (view tests render them synchronously after this). */
export async function preloadLazyComponents() {
  await Promise.all(preloaders.map((preload) => preload()))
}
