/**
 * Components whose code loads only when first shown (dialogs, menus and their library), so the first load of a
 * page carries only what it renders. Once loaded, a component renders synchronously, without a Suspense pass.
 */
import { lazy, Suspense, type ComponentType } from 'react'

const preloaders: Array<() => Promise<void>> = []

export function lazyComponent<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
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
      <Suspense fallback={null}>
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
