/**
 * Code that loads only when first needed, so the first load of a page carries only what it renders:
 * - components (dialogs, menus, screens off the first one): once loaded, one renders synchronously, without a
 *   Suspense pass. A screen gives a fallback (its loading treatment) so it never flashes blank while its chunk loads.
 * - machines of later screens (AppLogic's loaders): the component that runs one reads it with `useLoaded`, which
 *   suspends to the nearest fallback until it is there and returns it synchronously from then on. A lazy screen
 *   names the machines it runs, so they load alongside its own chunk, not after it.
 */
import { lazy, Suspense, use, useContext, useState, type ComponentType, type ReactNode, type ReactPromise } from 'react'
import { AppLogicContext, type AppLogic, type Loader } from './logic'

const preloaders: Array<() => Promise<void>> = []

export function lazyComponent<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  fallback: ReactNode = null,
  /** The machines the screen runs (AppLogic's loaders): they start loading when the screen is first rendered. */
  machines?: (logic: AppLogic) => Array<Loader<unknown>>,
) {
  let loaded: ComponentType<P> | null = null
  let pending: Promise<void> | null = null
  const preload = () =>
    (pending ??= load().then((module) => {
      loaded = module.default
    }))
  preloaders.push(preload)
  const Lazy = lazy(() => preload().then(() => ({ default: loaded! })))
  function LazyComponent(props: P) {
    const logic = useContext(AppLogicContext)
    if (machines && logic) for (const machine of machines(logic)) preloadLoader(machine)
    // The shape is chosen once per mount: code already here renders at once; otherwise the lazy element stays even
    // after the code arrives, since swapping it for the loaded component would mount the screen a second time
    // (its actors stopped and started again, their first requests sent twice).
    const [Loaded] = useState(() => loaded)
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

/** A load under way or done, with the fields React's `use` reads, so a settled one is read without suspending. */
type TrackedPromise<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown }

const loads = new WeakMap<Loader<unknown>, TrackedPromise<unknown>>()
const derivations = new WeakMap<Loader<unknown>, { from: Loader<unknown>; map: (value: unknown) => unknown }>()

function started<T>(load: Loader<T>): TrackedPromise<T> {
  const known = loads.get(load as Loader<unknown>) as TrackedPromise<T> | undefined
  if (known) return known
  // Derived from a loader that has loaded: settled at once, so its screen renders without a loading pass.
  const derivation = derivations.get(load as Loader<unknown>)
  const from = derivation ? loads.get(derivation.from) : undefined
  if (derivation && from?.status === 'fulfilled') {
    const value = derivation.map(from.value) as T
    const settled: TrackedPromise<T> = Object.assign(Promise.resolve(value), { status: 'fulfilled' as const, value })
    loads.set(load as Loader<unknown>, settled)
    return settled
  }
  const promise: TrackedPromise<T> = load()
  promise.status = 'pending'
  promise.then(
    (value) => {
      promise.status = 'fulfilled'
      promise.value = value
    },
    // Kept, as React.lazy keeps a failed chunk: the browser would not fetch a failed module again either.
    (reason: unknown) => {
      promise.status = 'rejected'
      promise.reason = reason
    },
  )
  loads.set(load as Loader<unknown>, promise)
  return promise
}

/** Starts a loader (once: later calls share its load) without waiting for it. */
export function preloadLoader(load: Loader<unknown>): void {
  void started(load)
}

/** The loader's value: suspends to the nearest Suspense fallback while it loads, synchronous once it has. */
export function useLoaded<T>(load: Loader<T>): T {
  const promise = started(load)
  return promise.status === 'fulfilled' ? (promise.value as T) : use(promise as ReactPromise<T>)
}

/** A loader of what `map` makes of another loader's value (e.g. its machine with more provided), mapped once. */
export function mapLoaded<T, U>(from: Loader<T>, map: (value: T) => U): Loader<U> {
  const load: Loader<U> = () => started(from).then(map)
  derivations.set(load as Loader<unknown>, { from: from as Loader<unknown>, map: map as (value: unknown) => unknown })
  return load
}

/** Registers a loader with the preloading of view tests; returns it unchanged. */
export function preloadable<T>(load: Loader<T>): Loader<T> {
  preloaders.push(() => started(load).then(() => undefined))
  return load
}

/**
 * Loads every lazy component and preloadable loader declared so far (view tests render them synchronously after this).
 * One that fails to load is left to show its failure where it renders (LoadFailed), not to fail the others' loading.
 */
export async function preloadLazyComponents() {
  await Promise.allSettled(preloaders.map((preload) => preload()))
}

/**
 * For view tests that share one module graph across files: returns a function that forgets the lazy components
 * and loaders declared since, so a test's own (a chunk that never loads, one that fails) is not preloaded for the
 * next file. What the modules declare when imported stays.
 */
export function lazyDeclarationMark(): () => void {
  const mark = preloaders.length
  return () => {
    preloaders.length = Math.min(preloaders.length, mark)
  }
}
