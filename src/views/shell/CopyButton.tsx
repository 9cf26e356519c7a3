import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { selectCopyButtonView, type copyButtonMachine } from '../../../machines/copyButton.machine'
import { Icon } from './Icon'
import { Button } from './ui'

type CopyButtonActorRef = ActorRefFrom<typeof copyButtonMachine>

/**
 * 'Copy', then 'Copied' for 2 s: the label follows the copy button machine; the click asks the owner to copy.
 * Placed inside a labelled group (the row), which names what it copies.
 */
export function CopyButton({ copier, enabled, onCopy }: { copier: CopyButtonActorRef | undefined; enabled: boolean; onCopy: () => void }) {
  const label = useSelector(copier, (snapshot) => (snapshot ? selectCopyButtonView(snapshot).label : 'Copy'))
  const copying = useSelector(copier, (snapshot) => (snapshot ? selectCopyButtonView(snapshot).copying : false))
  return (
    <Button onClick={onCopy} disabled={!enabled || copying} className="min-w-24">
      <Icon name="copy" className="h-4 w-4" />
      {label}
    </Button>
  )
}
