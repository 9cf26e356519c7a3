import { useSelector } from '@xstate/react'
import { selectPreviewsOpen } from '../../../machines/featurePreviews.machine'
import type { PreviewsActorRef } from '../shell/contexts'
import { lazyComponent } from '../shell/lazy'

const FeaturePreviewsPanel = lazyComponent(() => import('./FeaturePreviewsPanel'))

/** The feature previews modal; its code loads when it first opens. */
export function FeaturePreviewsDialog({ previews }: { previews: PreviewsActorRef }) {
  const open = useSelector(previews, selectPreviewsOpen)
  return open ? <FeaturePreviewsPanel previews={previews} /> : null
}
