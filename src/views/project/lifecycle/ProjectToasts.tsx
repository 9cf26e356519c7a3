import { useSelector } from '@xstate/react'
import { ToastRegion } from '../../shell/ToastRegion'
import { useProjectActor } from '../../shell/projectActor'

/** The open project's toasts: the toast machine the project status machine runs as its child 'toasts'. */
export function ProjectToasts() {
  const toasts = useSelector(useProjectActor(), (snapshot) => snapshot.children.toasts)
  return toasts ? <ToastRegion actor={toasts} /> : null
}
