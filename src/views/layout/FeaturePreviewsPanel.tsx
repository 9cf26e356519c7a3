import { Field, Label, Description, Switch } from '@headlessui/react'
import { useSelector } from '@xstate/react'
import { FEATURE_PREVIEWS, selectEnabledPreviews, selectPreviewsOpen } from '../../../machines/featurePreviews.machine'
import type { PreviewsActorRef } from '../shell/contexts'
import { Modal } from '../shell/Modal'
import { cx } from '../shell/ui'

export default function FeaturePreviewsPanel({ previews }: { previews: PreviewsActorRef }) {
  const open = useSelector(previews, selectPreviewsOpen)
  const enabled = useSelector(previews, selectEnabledPreviews)
  return (
    <Modal open={open} onClose={() => previews.send({ type: 'previews.close' })} title="Feature previews">
      <p className="mb-4 text-sm text-neutral-500 dark:text-neutral-400">
        Try features before they are generally available. Your choices are remembered on this device.
      </p>
      <ul className="divide-y divide-neutral-200 dark:divide-neutral-800">
        {FEATURE_PREVIEWS.map((preview) => {
          const on = enabled[preview.id] === true
          return (
            <li key={preview.id} className="py-3">
              <Field className="flex items-start justify-between gap-4">
                <div>
                  <Label className="text-sm font-medium">{preview.name}</Label>
                  <Description className="text-sm text-neutral-500 dark:text-neutral-400">{preview.description}</Description>
                </div>
                <Switch
                  checked={on}
                  onChange={() => previews.send({ type: 'preview.toggle', id: preview.id })}
                  className={cx(
                    'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors',
                    on ? 'bg-emerald-600' : 'bg-neutral-300 dark:bg-neutral-700',
                  )}
                >
                  <span className={cx('inline-block h-4 w-4 rounded-full bg-white shadow transition-transform', on ? 'translate-x-6' : 'translate-x-1')} />
                </Switch>
              </Field>
            </li>
          )
        })}
      </ul>
    </Modal>
  )
}
