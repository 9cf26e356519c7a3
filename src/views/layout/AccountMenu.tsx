import { useSelector } from '@xstate/react'
import { useId, useRef } from 'react'
import { selectAccountMenuOpen } from '../../../machines/navBar.machine'
import { selectProfile } from '../../../machines/session.machine'
import { useShell, type NavBarActorRef } from '../shell/contexts'
import { lazyComponent } from '../shell/lazy'
import { cx } from '../shell/ui'
import { EntryLabel, entryClass } from './navEntry'

// The panel loads when the menu first opens: every page shows the button, few open the menu.
const AccountMenuPanel = lazyComponent(() => import('./AccountMenuPanel'))

/**
 * The account dropdown, an ARIA menu whose open state is the navigation bar machine's (`menu` region), so the bar
 * stays expanded while it is open. Written here rather than with a menu library: it is on every page, and the
 * library's menu (with its positioning engine) cost a fifth of the first-load budget; it also lets the theme
 * choices be real radio items.
 */
export function AccountMenu({ navBar, expanded }: { navBar: NavBarActorRef; expanded: boolean }) {
  const { session } = useShell()
  const open = useSelector(navBar, selectAccountMenuOpen)
  const profile = useSelector(session, selectProfile)
  const username = profile?.username ?? 'Account'
  const menuId = useId()
  const buttonRef = useRef<HTMLButtonElement>(null)

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        // Its name holds the username the expanded bar shows (WCAG 2.5.3); the avatar's initial only repeats it.
        aria-label={`Account ${username}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        className={cx(entryClass(open), 'w-[calc(100%-1rem)] text-left')}
        onClick={() => navBar.send({ type: open ? 'menu.closed' : 'menu.opened' })}
        onKeyDown={(event) => {
          if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && !open) {
            event.preventDefault()
            navBar.send({ type: 'menu.opened' })
          }
        }}
      >
        {/* The initial is drawn, not written: as text it would stand before the username in the button's visible
            label, which the accessible name must contain as it reads (WCAG 2.5.3). */}
        <span
          aria-hidden
          data-initial={username.slice(0, 1)}
          className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-primary text-xs font-semibold text-white uppercase before:content-[attr(data-initial)]"
        />
        <EntryLabel expanded={expanded}>
          <span className="truncate">{username}</span>
        </EntryLabel>
      </button>
      {open ? <AccountMenuPanel navBar={navBar} menuId={menuId} buttonRef={buttonRef} /> : null}
    </>
  )
}
