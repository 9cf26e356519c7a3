import { Radio, RadioGroup, Label, Field } from '@headlessui/react'
import { useSelector } from '@xstate/react'
import { selectTheme, THEME_LABELS, THEMES } from '../../../machines/theme.machine'
import type { ThemeActorRef } from '../shell/contexts'
import { cx } from '../shell/ui'

const SWATCHES = {
  light: 'bg-white border-neutral-300',
  dark: 'bg-neutral-800 border-neutral-600',
  'deep-dark': 'bg-black border-neutral-700',
  system: 'bg-gradient-to-r from-white to-neutral-800 border-neutral-400',
} as const

/** The full theme list: light, dark, deep-dark and system. */
export function ThemeList({ theme }: { theme: ThemeActorRef }) {
  const current = useSelector(theme, selectTheme)
  return (
    <RadioGroup
      value={current}
      onChange={(value) => theme.send({ type: 'theme.set', theme: value })}
      aria-label="Theme"
      className="grid gap-3 sm:grid-cols-4"
    >
      {THEMES.map((option) => (
        <Field key={option}>
          <Radio
            value={option}
            className={({ checked }) =>
              cx(
                'flex cursor-pointer flex-col gap-2 rounded-lg border p-3 text-sm focus:outline-none data-focus:ring-2 data-focus:ring-emerald-500/40',
                checked ? 'border-emerald-600 ring-1 ring-emerald-600' : 'border-neutral-200 dark:border-neutral-700',
              )
            }
          >
            <span aria-hidden className={cx('h-10 rounded border', SWATCHES[option])} />
            <Label className="font-medium">{THEME_LABELS[option]}</Label>
          </Radio>
        </Field>
      ))}
    </RadioGroup>
  )
}
