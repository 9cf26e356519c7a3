import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react'
import { Link } from 'wouter'
import { cx } from '../shell/ui'

/** Side menu width in rem: 64 Tailwind units (16rem) to 32rem. */
const SIDE_MENU_MIN_REM = 16
const SIDE_MENU_MAX_REM = 32
const STEP_REM = 1

const clamp = (rem: number) => Math.min(SIDE_MENU_MAX_REM, Math.max(SIDE_MENU_MIN_REM, rem))

/**
 * The product's sub-pages beside the main area, resizable with the pointer or the keyboard (arrows, Home, End).
 * The width is purely visual and lives in the component.
 */
export function SideMenu({ title, items }: { title: string; items: Array<{ label: string; href: string; active: boolean }> }) {
  const [width, setWidth] = useState(SIDE_MENU_MIN_REM)
  const drag = useRef<{ startX: number; startWidth: number } | null>(null)
  const remPx = () => parseFloat(getComputedStyle(document.documentElement).fontSize) || 16

  function onKeyDown(event: KeyboardEvent) {
    const next =
      event.key === 'ArrowRight' ? width + STEP_REM
      : event.key === 'ArrowLeft' ? width - STEP_REM
      : event.key === 'Home' ? SIDE_MENU_MIN_REM
      : event.key === 'End' ? SIDE_MENU_MAX_REM
      : null
    if (next === null) return
    event.preventDefault()
    setWidth(clamp(next))
  }
  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    drag.current = { startX: event.clientX, startWidth: width }
    event.currentTarget.setPointerCapture?.(event.pointerId)
  }
  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    if (!drag.current) return
    setWidth(clamp(drag.current.startWidth + (event.clientX - drag.current.startX) / remPx()))
  }
  function onPointerUp() {
    drag.current = null
  }

  return (
    <div className="relative flex shrink-0" style={{ width: `${width}rem` }}>
      <aside aria-label={`${title} menu`} className="flex-1 overflow-y-auto border-r border-neutral-200 bg-white px-3 py-4 dark:border-neutral-800 dark:bg-neutral-900">
        <h2 className="mb-3 px-2 text-sm font-semibold">{title}</h2>
        <ul className="space-y-0.5">
          {items.map((item) => (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={item.active ? 'page' : undefined}
                className={cx(
                  'block rounded-md px-2 py-1.5 text-sm',
                  item.active
                    ? 'bg-neutral-100 font-medium text-neutral-900 dark:bg-neutral-800 dark:text-white'
                    : 'text-neutral-600 hover:bg-neutral-50 hover:text-neutral-900 dark:text-neutral-400 dark:hover:bg-neutral-800 dark:hover:text-white',
                )}
              >
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </aside>
      <div
        role="separator"
        tabIndex={0}
        aria-label="Resize side menu"
        aria-orientation="vertical"
        aria-valuemin={SIDE_MENU_MIN_REM}
        aria-valuemax={SIDE_MENU_MAX_REM}
        aria-valuenow={Math.round(width)}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        className="absolute inset-y-0 -right-1 z-10 w-2 cursor-col-resize touch-none focus-visible:bg-emerald-500/40 hover:bg-emerald-500/30"
      />
    </div>
  )
}
