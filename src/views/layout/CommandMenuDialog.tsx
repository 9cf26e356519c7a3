import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions, Dialog, DialogPanel, DialogTitle } from '@headlessui/react'
import { useSelector } from '@xstate/react'
import { useState } from 'react'
import { useLocation } from 'wouter'
import { selectAllProjects } from '../../../machines/projectList.machine'
import { projectLink } from '../../../machines/projectStatus.machine'
import type { Project } from '../../contracts/projects'
import { href } from '../../href'
import { commandRoutes } from '../routes/projectRoutes'
import { useBuildFlags, useProjectListActor } from '../shell/contexts'
import { Icon } from '../shell/Icon'
import { cx } from '../shell/ui'

interface Command {
  id: string
  label: string
  group: string
  href: string
}

/** The command menu's dialog and list; loaded when the menu first opens. */
export default function CommandMenuDialog({ project, onClose }: { project: Project | null; onClose: () => void }) {
  return (
    <Dialog open onClose={onClose} className="relative z-50">
      <div aria-hidden className="fixed inset-0 bg-neutral-950/40" />
      <div className="fixed inset-0 flex items-start justify-center p-4 pt-[15vh]">
        <DialogPanel className="w-full max-w-xl overflow-hidden rounded-xl border border-neutral-200 bg-white shadow-2xl dark:border-neutral-800 dark:bg-neutral-900">
          <DialogTitle className="sr-only">Command menu</DialogTitle>
          <CommandList project={project} onDone={onClose} />
        </DialogPanel>
      </div>
    </Dialog>
  )
}

function CommandList({ project, onDone }: { project: Project | null; onDone: () => void }) {
  const [query, setQuery] = useState('')
  const [, navigate] = useLocation()
  const commands = useCommands(project)
  const q = query.trim().toLowerCase()
  const filtered = q === '' ? commands : commands.filter((command) => `${command.group} ${command.label}`.toLowerCase().includes(q))
  const groups = [...new Set(filtered.map((command) => command.group))]

  return (
    <Combobox<Command | null>
      onChange={(command) => {
        if (!command) return
        navigate(command.href)
        onDone()
      }}
    >
      <div className="flex items-center gap-2 border-b border-neutral-200 px-4 dark:border-neutral-800">
        <Icon name="search" className="h-4 w-4 text-neutral-400" />
        <ComboboxInput
          autoFocus
          aria-label="Search commands"
          placeholder="Type a command or search…"
          className="h-12 w-full bg-transparent text-sm outline-none placeholder:text-neutral-400"
          onChange={(event) => setQuery(event.target.value)}
        />
      </div>
      <ComboboxOptions static className="max-h-80 overflow-y-auto p-2">
        {filtered.length === 0 ? <p className="px-3 py-6 text-center text-sm text-neutral-500">No results found.</p> : null}
        {groups.map((group) => (
          <div key={group} role="presentation" className="mb-2">
            <p role="presentation" className="px-3 py-1 text-xs font-medium text-neutral-500">
              {group}
            </p>
            {filtered
              .filter((command) => command.group === group)
              .map((command) => (
                <ComboboxOption
                  key={command.id}
                  value={command}
                  className={({ focus }) =>
                    cx('cursor-pointer rounded-md px-3 py-2 text-sm', focus ? 'bg-neutral-100 text-neutral-900 dark:bg-neutral-800 dark:text-white' : 'text-neutral-700 dark:text-neutral-300')
                  }
                >
                  {command.label}
                </ComboboxOption>
              ))}
          </div>
        ))}
      </ComboboxOptions>
    </Combobox>
  )
}

function useCommands(current: Project | null): Command[] {
  const flags = useBuildFlags()
  const [path] = useLocation()
  const projectList = useProjectListActor()
  const projects = useSelector(projectList, selectAllProjects)
  const commands: Command[] = []
  if (current) {
    // The API docs panel opens over the current page: its `docs` parameter opens it (ApiDocsDialog).
    commands.push({ id: 'panel:api-docs', label: 'API Docs panel', group: current.name, href: href.apiDocsPanel(path) })
    commands.push({ id: 'panel:ai-settings', label: 'Supabase AI Settings', group: current.name, href: href.aiSettings(path) })
    // The project layout hosts the branching dialog: its `enableBranching` parameter opens it over the current page.
    if (flags.isPlatform) commands.push({ id: 'panel:branching', label: 'Enable database branching', group: current.name, href: href.branching(path) })
    for (const route of commandRoutes(flags)) {
      commands.push({
        id: `page:${route.section}`,
        label: route.title,
        group: current.name,
        href: projectLink(current, current.ref, route.section),
      })
    }
  }
  for (const project of projects) {
    if (project.ref === current?.ref) continue
    commands.push({ id: `project:${project.ref}`, label: project.name, group: 'Projects', href: href.project(project.ref) })
  }
  commands.push({ id: 'nav:projects', label: 'All projects', group: 'Navigation', href: href.projects() })
  commands.push({ id: 'nav:account', label: 'Account preferences', group: 'Navigation', href: href.account() })
  return commands
}

