/**
 * The project list's cards at 1,000 projects (src/views/projects/ProjectGrid.tsx, inside ProjectsPage): a short list
 * renders every card; a long one renders the rows of cards in and near the scrolled view, each card telling its place
 * in the whole, keeps the height of all its rows and follows the scrolling; a search filters the whole list in memory.
 * The scrolling area is given a height here (the test DOM lays nothing out; its viewport is wide enough for three
 * columns); Chromium runs the same page in bench/project-list.bench.ts.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { projectListMachine } from '../../machines/projectList.machine'
import type { Project } from '../../src/contracts/projects'
import { VIRTUAL_FROM } from '../../src/views/projects/ProjectGrid'
import { ProjectsPage } from '../../src/views/projects/ProjectsPage'
import { makeProject } from '../fixtures'
import { ORGS } from '../fakePlatform'

const VIEW_HEIGHT = 800
const PRO = ORGS.find((org) => org.slug === 'demo-pro')!

const refOf = (i: number) => Array.from(String(i).padStart(4, '0'), (digit) => 'abcdefghij'[Number(digit)]).join('').padEnd(20, 'x')
const projectsOf = (count: number): Project[] =>
  Array.from({ length: count }, (_, i) =>
    makeProject({ id: i + 1, ref: refOf(i), name: `Project ${String(i).padStart(4, '0')}`, organization_id: PRO.id, organization_slug: PRO.slug }),
  )

let stop: (() => void) | null = null
afterEach(() => {
  stop?.()
  document.body.replaceChildren()
})

/** The projects page in a scrolling area of VIEW_HEIGHT px, its list loaded with `projects`. */
async function renderPage(projects: Project[]) {
  const actor = createActor(
    projectListMachine.provide({ actors: { fetchProjects: fromPromise(async () => ({ organizations: ORGS, projects })) } }),
  ).start()
  stop = () => actor.stop()
  const root = document.createElement('main')
  root.style.overflowY = 'auto'
  Object.defineProperty(root, 'offsetHeight', { configurable: true, value: VIEW_HEIGHT })
  Object.defineProperty(root, 'offsetWidth', { configurable: true, value: 1200 })
  Object.defineProperty(root, 'clientHeight', { configurable: true, value: VIEW_HEIGHT })
  document.body.append(root)
  render(<ProjectsPage projectList={actor} />, { container: root.appendChild(document.createElement('div')) })
  const region = await screen.findByRole('region', { name: PRO.name })
  const list = () => within(region).getByRole('list')
  const cards = () => within(list()).getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)
  return { root, list, cards }
}

// Each test builds and filters a list of 1,000 projects in the test DOM: seconds on a busy machine.
describe('project list at 1,000 projects', { timeout: 20_000 }, () => {
  it('a short list renders every card, in order, without place attributes', async () => {
    const { list, cards } = await renderPage(projectsOf(VIRTUAL_FROM - 1))
    expect(cards()).toEqual(projectsOf(VIRTUAL_FROM - 1).map((p) => p.name))
    expect(within(list()).getAllByRole('listitem')[0]).not.toHaveAttribute('aria-setsize')
  })

  it('a list of 1,000 renders the cards of its view and a few rows beyond, each with its place in the whole', async () => {
    const { list, cards } = await renderPage(projectsOf(1_000))
    const items = within(list()).getAllByRole('listitem')
    // 800 px of rows about 122 px apart in three columns: 7 rows, and the rows beyond.
    expect(items.length).toBeGreaterThanOrEqual(18)
    expect(items.length).toBeLessThan(60)
    expect(cards()[0]).toBe('Project 0000')
    expect(items.map((li) => li.getAttribute('aria-posinset'))).toEqual(items.map((_, i) => String(i + 1)))
    for (const li of items) expect(li).toHaveAttribute('aria-setsize', '1000')
    // A card keeps what it shows: its link to the project, status and region.
    const first = within(list()).getByRole('link', { name: /^Project 0000 / })
    expect(first).toHaveAttribute('href', `/project/${refOf(0)}`)
    expect(first).toHaveTextContent('Active')
    expect(first).toHaveTextContent('us-east-1')
    // The list is as tall as all its rows (334 rows of three), so the scroll bar is the whole list's.
    expect(parseFloat(list().style.height)).toBeGreaterThan(333 * 100)
  })

  it('scrolled to the middle and to the end, it renders the cards there', async () => {
    const { root, list, cards } = await renderPage(projectsOf(1_000))
    const height = parseFloat(list().style.height)
    await act(async () => {
      root.scrollTop = Math.round(height / 2)
      fireEvent.scroll(root)
    })
    expect(cards()).toContain('Project 0500')
    expect(cards()).not.toContain('Project 0000')
    await act(async () => {
      root.scrollTop = Math.round(height)
      fireEvent.scroll(root)
    })
    expect(cards()).toContain('Project 0999')
    expect(within(list()).getAllByRole('listitem').at(-1)).toHaveAttribute('aria-posinset', '1000')
  })

  it('a search finds projects past the rendered ones, and clearing it brings the whole list back', async () => {
    const { cards } = await renderPage(projectsOf(1_000))
    const user = userEvent.setup()
    const search = screen.getByRole('searchbox', { name: 'Search for a project' })
    // Pasted, one input event each: typing a letter at a time re-renders 1,000 cards' list for every letter.
    await user.click(search)
    await user.paste('project 097')
    expect(cards()).toEqual(Array.from({ length: 10 }, (_, i) => `Project 097${i}`))
    // Refs are searched too.
    await user.clear(search)
    await user.paste(refOf(998).slice(0, 4))
    expect(cards()).toEqual(['Project 0998'])
    await user.clear(search)
    expect(cards()[0]).toBe('Project 0000')
    expect(cards().length).toBeLessThan(60)
  })
})
