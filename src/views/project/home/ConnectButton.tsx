/**
 * The project home's 'Connect' button. The project home is in the first load; the dialog, its machine and the
 * connection strings' contract are not: they load on the first click, which then opens the dialog.
 */
import { useState } from 'react'
import { lazyComponent } from '../../shell/lazy'
import { Button } from '../../shell/ui'

const ConnectDialog = lazyComponent(() => import('./ConnectDialog'), <Button disabled>Connect</Button>, (logic) => [logic.connect])

export function ConnectButton({ projectRef }: { projectRef: string }) {
  // Whether the dialog's code was asked for: the dialog's own states (closed, loading, ready…) are its machine's.
  const [asked, setAsked] = useState(false)
  return asked ? (
    <ConnectDialog projectRef={projectRef} openAtOnce />
  ) : (
    <Button variant="primary" onClick={() => setAsked(true)}>
      Connect
    </Button>
  )
}
