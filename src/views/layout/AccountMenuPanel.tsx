import { useSelector } from '@xstate/react'
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react'
import { createPortal } from 'react-dom'
import { Link } from 'wouter'
import { selectProfile } from '../../../machines/session.machine'
import { selectTheme, THEME_LABELS, type Theme } from '../../../machines/theme.machine'
import { href } from '../../href'
import { useBuildFlags, useShell, type NavBarActorRef } from '../shell/contexts'
import { cx } from '../shell/ui'

const MENU_THEMES: Theme[] = ['light', 'dark', 'system']
const ITEM_SELECTOR = '[role="menuitem"],[role="menuitemradio"]'

/**
 * The account menu's panel, mounted while the navigation bar machine's `menu` region is open; its code loads when
 * the menu first opens (./AccountMenu.tsx holds the button, which every page shows). Focus handling (first item on
 * open, arrows, Escape back to the button) is the view's own business and holds no flow state.
 */
export default function AccountMenuPanel({
  navBar,
  menuId,
  buttonRef,
}: {
  navBar: NavBarActorRef
  menuId: string
  buttonRef: RefObject<HTMLButtonElement | null>
}) {
  const { session, theme, previews } = useShell()
  const flags = useBuildFlags()
  const profile = useSelector(session, selectProfile)
  const currentTheme = useSelector(theme, selectTheme)
  const canSignOut = useSelector(session, (snapshot) => snapshot.can({ type: 'session.signOut' }))
  const username = profile?.username ?? 'Account'
  const email = profile?.primary_email ?? ''
  const menuRef = useRef<HTMLDivElement>(null)
  // Where the panel sits: level with the button, beside the bar (which clips its overflow), whose width is the
  // expanded one while this menu is open (the machine holds it so). Layout, not flow state.
  const [bottom, setBottom] = useState<number | null>(null)

  const close = (returnFocus: boolean) => {
    navBar.send({ type: 'menu.closed' })
    if (returnFocus) buttonRef.current?.focus()
  }
  const choose = (action: () => void) => () => {
    action()
    close(false)
  }

  useLayoutEffect(() => {
    if (!buttonRef.current) return
    setBottom(Math.max(8, window.innerHeight - buttonRef.current.getBoundingClientRect().bottom))
  }, [buttonRef])

  useEffect(() => {
    menuRef.current?.querySelector<HTMLElement>(ITEM_SELECTOR)?.focus()
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) navBar.send({ type: 'menu.closed' })
    }
    document.addEventListener('pointerdown', onPointerDown)
    return () => document.removeEventListener('pointerdown', onPointerDown)
  }, [navBar, buttonRef])

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>(ITEM_SELECTOR) ?? [])].filter(
      (item) => item.getAttribute('aria-disabled') !== 'true',
    )
    const index = items.indexOf(document.activeElement as HTMLElement)
    const focus = (i: number) => items[(i + items.length) % items.length]?.focus()
    if (event.key === 'ArrowDown') focus(index + 1)
    else if (event.key === 'ArrowUp') focus(index - 1)
    else if (event.key === 'Home') focus(0)
    else if (event.key === 'End') focus(items.length - 1)
    else if (event.key === 'Escape') close(true)
    else if (event.key === 'Tab') close(false)
    else return
    if (event.key !== 'Tab') event.preventDefault()
  }

  return createPortal(
    <div
      ref={menuRef}
      id={menuId}
      role="menu"
      aria-label="Account"
      tabIndex={-1}
      onKeyDown={onMenuKeyDown}
      style={bottom === null ? { visibility: 'hidden' } : { bottom }}
      className="fixed left-[calc(13rem+8px)] z-50 w-60 rounded-lg border border-neutral-200 bg-white p-1 text-sm shadow-lg focus:outline-none dark:border-neutral-800 dark:bg-neutral-900"
    >
      <div className="px-3 py-2">
        <p className="truncate font-medium text-neutral-900 dark:text-neutral-100">{username}</p>
        {email !== '' && email !== username ? <p className="truncate text-xs text-neutral-500">{email}</p> : null}
      </div>
      <div role="separator" className="my-1 h-px bg-neutral-200 dark:bg-neutral-800" />
      <Link href={href.account()} role="menuitem" tabIndex={-1} className={menuItemClass} onClick={() => close(false)}>
        Account preferences
      </Link>
      <button type="button" role="menuitem" tabIndex={-1} className={menuItemClass} onClick={choose(() => previews.send({ type: 'previews.open' }))}>
        Feature previews
      </button>
      <div role="separator" className="my-1 h-px bg-neutral-200 dark:bg-neutral-800" />
      <div role="group" aria-labelledby={`${menuId}-theme`}>
        <p id={`${menuId}-theme`} className="px-3 py-1 text-xs font-medium text-neutral-500">
          Theme
        </p>
        {MENU_THEMES.map((option) => (
          <button
            key={option}
            type="button"
            role="menuitemradio"
            aria-checked={currentTheme === option}
            tabIndex={-1}
            className={menuItemClass}
            onClick={choose(() => theme.send({ type: 'theme.set', theme: option }))}
          >
            <span
              aria-hidden
              className={cx(
                'h-2 w-2 rounded-full',
                currentTheme === option ? 'bg-emerald-600' : 'border border-neutral-300 dark:border-neutral-600',
              )}
            />
            {THEME_LABELS[option]}
          </button>
        ))}
      </div>
      {flags.isPlatform ? (
        <>
          <div role="separator" className="my-1 h-px bg-neutral-200 dark:bg-neutral-800" />
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            aria-disabled={!canSignOut}
            className={menuItemClass}
            onClick={() => {
              if (!canSignOut) return
              session.send({ type: 'session.signOut' })
              close(false)
            }}
          >
            Log out
          </button>
        </>
      ) : null}
    </div>,
    document.body,
  )
}

const menuItemClass =
  'flex w-full items-center gap-2 rounded-md px-3 py-1.5 text-left text-neutral-700 outline-none hover:bg-neutral-100 focus:bg-neutral-100 focus:text-neutral-900 aria-disabled:opacity-50 dark:text-neutral-300 dark:hover:bg-neutral-800 dark:focus:bg-neutral-800 dark:focus:text-white'
