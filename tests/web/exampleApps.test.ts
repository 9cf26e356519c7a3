import { describe, expect, it } from 'vitest'
import { EXAMPLE_APPS } from '../../src/views/project/clientLibraries'

// Spec 1: the example apps shown while a project is set up (kanban board, realtime chat, subscription starter, todo
// list, mobile starter …), each linking to its own example.
describe('example apps', () => {
  it('the Kanban board links to a kanban example, not to the chat app', () => {
    const kanban = EXAMPLE_APPS.find((app) => app.title === 'Kanban board')
    expect(kanban?.url).toBe('https://github.com/joshnuss/supabase-kanban')
    expect(kanban?.url).not.toContain('slack-clone')
  })

  it('no two examples link to the same place, and none links inside another', () => {
    const urls = EXAMPLE_APPS.map((app) => app.url)
    for (const url of urls) expect(urls.filter((other) => other === url || other.startsWith(`${url}/`))).toEqual([url])
  })
})
