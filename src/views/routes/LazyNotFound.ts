import { lazyComponent } from '../shell/lazy'

/** The 404 page, loaded when first shown: no first load needs it. */
export const LazyNotFound = lazyComponent<object>(() => import('../NotFound').then((m) => ({ default: m.NotFound })))
