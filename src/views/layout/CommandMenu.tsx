import { useSelector } from '@xstate/react'
import { useEffect } from 'react'
import { selectCommandMenuOpen } from '../../../machines/commandMenu.machine'
import type { Project } from '../../contracts/projects'
import { useShell } from '../shell/contexts'
import { lazyComponent } from '../shell/lazy'

const CommandMenuDialog = lazyComponent(() => import('./CommandMenuDialog'))

const isTextField = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))

/**
 * The command menu (platform build): opened by the Search button, Ctrl/Cmd+K, or K outside a text field. Jumps to
 * any page of the current project (given by the layout) and to other projects. The typed query is the input's own value.
 */
export function CommandMenu({ project }: { project: Project | null }) {
  const { commandMenu } = useShell()
  const open = useSelector(commandMenu, selectCommandMenuOpen)

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key.toLowerCase() !== 'k' || event.altKey || event.shiftKey) return
      if (event.metaKey || event.ctrlKey) {
        event.preventDefault()
        commandMenu.send({ type: 'commandMenu.toggle' })
      } else if (!isTextField(event.target)) {
        event.preventDefault()
        commandMenu.send({ type: 'commandMenu.open' })
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [commandMenu])

  return open ? <CommandMenuDialog project={project} onClose={() => commandMenu.send({ type: 'commandMenu.close' })} /> : null
}
