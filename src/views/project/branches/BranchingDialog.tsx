import { useActorRef, useSelector } from '@xstate/react'
import { useEffect, useState } from 'react'
import type { BranchingProject } from '../../../../machines/branchingEnablement.machine'
import { selectProject } from '../../../../machines/projectStatus.machine'
import { useLoaded } from '../../shell/lazy'
import { useAppLogic } from '../../shell/logic'
import { useProjectActor } from '../../shell/projectActor'
import { BranchingModal } from './BranchingModal'

/**
 * The layout's 'Enable database branching' dialog: an enablement actor of its own, opened at once; when its machine
 * closes the modal (dismissed or a branch created), `onClose` takes the parameter off the URL.
 */
export default function BranchingDialog({ onClose }: { onClose: () => void }) {
  const projectActor = useProjectActor()
  const project = useSelector(projectActor, selectProject)!
  const toasts = useSelector(projectActor, (snapshot) => snapshot.children.toasts)!
  const loaded = useLoaded(useAppLogic().branchingEnablement)
  // No Branches page to tell of a new branch here: the toast says it, and the page reads its list when visited.
  const [machine] = useState(() => loaded.provide({ actions: { tellBranchCreated: () => {} } }))
  const input: BranchingProject = { ref: project.ref, organizationSlug: project.organization_slug, organizationId: project.organization_id, region: project.region }
  const actor = useActorRef(machine, { input: { project: input, toasts } })
  const open = useSelector(actor, (snapshot) => !snapshot.matches('closed'))
  const [opened, setOpened] = useState(false)
  useEffect(() => {
    actor.send({ type: 'modal.open' })
    setOpened(true)
  }, [actor])
  useEffect(() => {
    if (opened && !open) onClose()
  }, [opened, open, onClose])
  return <BranchingModal actor={actor} />
}
