/**
 * Theme: light, dark, deep-dark or system; system follows prefers-color-scheme (`system.changed`, sent by the
 * app from a media query listener). Entering a theme applies its class to <html> and remembers the choice;
 * both are actions the app provides (the machine does no I/O). The initial theme comes from input.
 */
import { assign, setup, type SnapshotFrom } from 'xstate'

export const THEMES = ['light', 'dark', 'deep-dark', 'system'] as const
export type Theme = (typeof THEMES)[number]
/** The class put on <html>. */
export type ThemeClass = 'light' | 'dark' | 'deep-dark'

type ThemeEvent = { type: 'theme.set'; theme: Theme } | { type: 'system.changed'; dark: boolean }

interface ThemeInput {
  theme: Theme
  systemDark: boolean
}

export const themeMachine = setup({
  types: {
    input: {} as ThemeInput,
    context: {} as { initial: Theme; systemDark: boolean },
    events: {} as ThemeEvent,
  },
  actions: {
    storeSystemDark: assign({ systemDark: ({ event }) => (event.type === 'system.changed' ? event.dark : false) }),
    applyTheme: (_, _params: { className: ThemeClass }) => {},
    persistTheme: (_, _params: { theme: Theme }) => {},
  },
  guards: {
    startsAs: ({ context }, params: { theme: Theme }) => context.initial === params.theme,
    isTheme: ({ event }, params: { theme: Theme }) => event.type === 'theme.set' && event.theme === params.theme,
  },
}).createMachine({
  id: 'theme',
  context: ({ input }) => ({ initial: input.theme, systemDark: input.systemDark }),
  initial: 'starting',
  on: {
    // Remembered in every state, so switching back to system applies the current preference.
    'system.changed': { actions: 'storeSystemDark' },
    'theme.set': [
      { guard: { type: 'isTheme', params: { theme: 'light' } }, target: '.light' },
      { guard: { type: 'isTheme', params: { theme: 'dark' } }, target: '.dark' },
      { guard: { type: 'isTheme', params: { theme: 'deep-dark' } }, target: '.deepDark' },
      { target: '.system' },
    ],
  },
  states: {
    starting: {
      always: [
        { guard: { type: 'startsAs', params: { theme: 'light' } }, target: 'light' },
        { guard: { type: 'startsAs', params: { theme: 'dark' } }, target: 'dark' },
        { guard: { type: 'startsAs', params: { theme: 'deep-dark' } }, target: 'deepDark' },
        { target: 'system' },
      ],
    },
    light: {
      entry: [
        { type: 'applyTheme', params: { className: 'light' } },
        { type: 'persistTheme', params: { theme: 'light' } },
      ],
    },
    dark: {
      entry: [
        { type: 'applyTheme', params: { className: 'dark' } },
        { type: 'persistTheme', params: { theme: 'dark' } },
      ],
    },
    deepDark: {
      entry: [
        { type: 'applyTheme', params: { className: 'deep-dark' } },
        { type: 'persistTheme', params: { theme: 'deep-dark' } },
      ],
    },
    system: {
      entry: [
        { type: 'applyTheme', params: ({ context }) => ({ className: context.systemDark ? 'dark' : 'light' }) },
        { type: 'persistTheme', params: { theme: 'system' } },
      ],
      on: {
        'system.changed': {
          actions: [
            'storeSystemDark',
            { type: 'applyTheme', params: ({ event }) => ({ className: event.dark ? 'dark' : 'light' }) },
          ],
        },
      },
    },
  },
})

/** The chosen theme (not the resolved class). */
export function selectTheme(snapshot: SnapshotFrom<typeof themeMachine>): Theme {
  if (snapshot.matches('light')) return 'light'
  if (snapshot.matches('dark')) return 'dark'
  if (snapshot.matches('deepDark')) return 'deep-dark'
  return 'system'
}

export const THEME_LABELS: Record<Theme, string> = { light: 'Light', dark: 'Dark', 'deep-dark': 'Deep dark', system: 'System' }

