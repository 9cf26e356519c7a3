import { useSelector } from '@xstate/react'
import { useLocation, useSearch } from 'wouter'
import { selectProject } from '../../../../machines/projectStatus.machine'
import { BRANCHING_PARAM } from '../../../href'
import { lazyComponent } from '../../shell/lazy'
import { Loading } from '../../shell/ui'
import { useProjectActor } from '../../shell/projectActor'

const BranchingDialogHost = lazyComponent<{ onClose: () => void }>(
  () => import('./BranchingDialog'),
  <Loading label="Loading branching…" />,
  (logic) => [logic.branchingEnablement],
)

/**
 * Hosted by the project layout: the 'Enable database branching' dialog is open while the URL carries
 * `enableBranching`; the dialog closing (dismissed, or a branch created) goes back to the page without it. The
 * Branches page keeps its own dialog (its machine's child, which tells the page of a new branch), so the parameter
 * is not read there. Its code and machine load when first opened, off the project's first load.
 */
export function BranchingHost({ section }: { section: string }) {
  const [path, navigate] = useLocation()
  const project = useSelector(useProjectActor(), selectProject)
  const open = section !== 'branches' && new URLSearchParams(useSearch()).has(BRANCHING_PARAM)
  return open && project ? <BranchingDialogHost onClose={() => navigate(path)} /> : null
}
