import type { ReactNode } from 'react'
import { lazyComponent } from './lazy'

const ModalDialog = lazyComponent(() => import('./ModalDialog'))

interface ModalProps {
  open: boolean
  onClose: () => void
  title: string
  children: ReactNode
  size?: 'md' | 'lg'
  /** 'side': a panel along the window's right edge, full height (the platform's side panels); else centred. */
  placement?: 'center' | 'side'
}

/**
 * A dialog whose open state belongs to a machine: `onClose` sends that machine an event. Its code (Headless UI's
 * Dialog) loads when a modal first opens.
 */
export function Modal(props: ModalProps) {
  return props.open ? <ModalDialog {...props} /> : null
}
