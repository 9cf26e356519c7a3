import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { THEMES, THEME_LABELS, themeMachine, type Theme } from '../machines/theme.machine'
import { applyThemeClass, readTheme, writeTheme } from '../src/app/preferences'
import { ThemeList } from '../src/views/account/ThemeList'
import { type ModelEvent, describePath, eventFor, keyByIncomingEdge, missingCoverage, modelOf } from './harness'

/** The model's events, typed by the machine. */
const ev = eventFor(themeMachine)

const EVENTS: Array<ModelEvent<typeof themeMachine>> = [
  ...THEMES.map((theme) => (ev({ type: 'theme.set', theme }))),
  { type: 'system.changed', dark: true },
  { type: 'system.changed', dark: false },
]

function modelFor(initial: Theme) {
  return modelOf(themeMachine, {
    input: { theme: initial, systemDark: false },
    events: () => EVENTS,
    serializeState: (snapshot, event, previous) =>
      keyByIncomingEdge(
        snapshot,
        event,
        `${JSON.stringify(previous?.value ?? null)}${snapshot.context.systemDark}`,
      ),
  })
}

// One model per remembered theme: the machine starts in the state of the stored choice.
const paths = THEMES.flatMap((initial) => modelFor(initial).getShortestPaths().map((path) => ({ initial, path })))


beforeEach(() => {
  localStorage.clear()
  document.documentElement.className = ''
})
let stop: (() => void) | null = null
afterEach(() => stop?.())

describe('theme model', () => {
  it('the paths reach every state and every transition', () => {
    const missing = missingCoverage(themeMachine, paths.map(({ path }) => path))
    // The transient starting state is left in the init step; each model starts from one remembered theme, so
    // together the four starts take each of its eventless branches.
    const starts = new Set(paths.map(({ path }) => JSON.stringify(path.steps[0].state.value)))
    expect(starts).toEqual(new Set(['"light"', '"dark"', '"deepDark"', '"system"']))
    expect(missing).toEqual({ states: [], transitions: [] })
  })

  for (const { initial, path } of paths) {
    it(`from ${initial}: ${describePath(path)}`, async () => {
      writeTheme(initial)
      const actor = createActor(
        themeMachine.provide({
          actions: {
            applyTheme: (_, params) => applyThemeClass(params.className),
            persistTheme: (_, params) => writeTheme(params.theme),
          },
        }),
        { input: { theme: readTheme(), systemDark: false } },
      ).start()
      stop = () => actor.stop()
      render(<ThemeList theme={actor} />)
      const user = userEvent.setup()
      const shows = (theme: Theme, className: string) => {
        expect(screen.getByRole('radio', { name: THEME_LABELS[theme] })).toBeChecked()
        expect(document.documentElement.className).toBe(className)
        expect(localStorage.getItem('supabase-ui-theme')).toBe(theme)
      }

      await path.test({
        states: {
          light: () => shows('light', 'light'),
          dark: () => shows('dark', 'dark'),
          deepDark: () => shows('deep-dark', 'deep-dark'),
          system: (snapshot) => shows('system', snapshot.context.systemDark ? 'dark' : 'light'),
        },
        events: {
          'theme.set': async (step) => {
            await user.click(screen.getByRole('radio', { name: THEME_LABELS[step.event.theme] }))
          },
          // A fact from the operating system (the app's prefers-color-scheme listener sends it).
          'system.changed': async (step) => {
            await act(async () => actor.send(step.event))
          },
        },
      })
    })
  }
})
