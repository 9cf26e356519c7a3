import { Description, Field, Label, Switch } from '@headlessui/react'
import type { ReactNode } from 'react'
import { cx } from './ui'

/** A labelled on/off switch whose value belongs to a machine: `onToggle` sends it an event. */
export function SettingSwitch({
  label,
  description,
  checked,
  disabled,
  onToggle,
}: {
  label: string
  description?: ReactNode
  checked: boolean
  disabled: boolean
  onToggle: () => void
}) {
  return (
    <Field disabled={disabled} className="flex items-start justify-between gap-4">
      <div>
        <Label className={cx('text-sm font-medium', disabled && 'text-neutral-500')}>{label}</Label>
        {description ? <Description className="text-sm text-neutral-600 dark:text-neutral-400">{description}</Description> : null}
      </div>
      <Switch
        checked={checked}
        onChange={onToggle}
        className={cx(
          'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors data-disabled:cursor-not-allowed data-disabled:opacity-60',
          checked ? 'bg-emerald-600' : 'bg-neutral-400 dark:bg-neutral-600',
        )}
      >
        <span className={cx('inline-block h-4 w-4 rounded-full bg-white shadow transition-transform', checked ? 'translate-x-6' : 'translate-x-1')} />
      </Switch>
    </Field>
  )
}
