import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react'
import type { ReactNode } from 'react'
import { Icon } from './Icon'
import { cx } from './ui'

/** The Headless UI dialog behind Modal; loaded when a modal first opens. */
export default function ModalDialog({
  open,
  onClose,
  title,
  children,
  size = 'md',
  placement = 'center',
}: {
  open: boolean
  onClose: () => void
  title: string
  children: ReactNode
  size?: 'md' | 'lg'
  placement?: 'center' | 'side'
}) {
  const heading = (
    <div className="flex items-center justify-between border-b border-neutral-200 px-5 py-3 dark:border-neutral-800">
      <DialogTitle className="font-semibold">{title}</DialogTitle>
      <button type="button" aria-label="Close" onClick={onClose} className="rounded p-1 text-neutral-500 hover:bg-neutral-100 dark:hover:bg-neutral-800">
        <Icon name="close" className="h-4 w-4" />
      </button>
    </div>
  )
  if (placement === 'side') {
    return (
      <Dialog open={open} onClose={onClose} className="relative z-50">
        <div aria-hidden className="fixed inset-0 bg-neutral-950/40" />
        <div className={cx('fixed inset-y-0 right-0 flex w-full', size === 'lg' ? 'max-w-2xl' : 'max-w-xl')}>
          <DialogPanel className="flex h-full w-full flex-col border-l border-neutral-200 bg-white shadow-2xl dark:border-neutral-800 dark:bg-neutral-900">
            {heading}
            <div className="flex-1 overflow-y-auto p-5">{children}</div>
          </DialogPanel>
        </div>
      </Dialog>
    )
  }
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50">
      <div aria-hidden className="fixed inset-0 bg-neutral-950/40 backdrop-blur-[1px]" />
      <div className="fixed inset-0 flex items-start justify-center overflow-y-auto p-4 pt-[12vh]">
        <DialogPanel
          className={cx(
            'w-full rounded-xl border border-neutral-200 bg-white shadow-2xl dark:border-neutral-800 dark:bg-neutral-900',
            size === 'lg' ? 'max-w-3xl' : 'max-w-lg',
          )}
        >
          {heading}
          <div className="p-5">{children}</div>
        </DialogPanel>
      </div>
    </Dialog>
  )
}
