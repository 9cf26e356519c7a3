import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { RESOURCE_TEXT } from '../../machines/resourceBanner'
import { fakePlatform, renderApp } from '../fakePlatform'

const REF = 'abcdefghijklmnopqrst'

afterEach(() => vi.unstubAllGlobals())

describe('settings/infrastructure', () => {
  it("has a section for every anchor the resource banner links to, each saying what the platform has", async () => {
    fakePlatform()
    renderApp(`/project/${REF}/settings/infrastructure`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Infrastructure' })).toBeInTheDocument()
    const anchors = Object.values(RESOURCE_TEXT).map((r) => r.anchor)
    expect(anchors.sort()).toEqual(['cpu', 'disk_io', 'disk_space', 'ram'])
    for (const anchor of anchors) {
      const section = document.getElementById(anchor)
      expect(section, anchor).not.toBeNull()
      expect(section!.tagName).toBe('SECTION')
      expect(section!.textContent!.length).toBeGreaterThan(40)
    }
    expect(within(document.getElementById('disk_space')!).getByRole('link', { name: "the organization's usage" })).toHaveAttribute('href', '/org/demo-pro/usage')
  })

  it('a link with a fragment scrolls to its section', async () => {
    fakePlatform()
    const scrolled: string[] = []
    const scroll = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this.id)
    })
    window.location.hash = '#disk_space'
    try {
      renderApp(`/project/${REF}/settings/infrastructure`)
      expect(await screen.findByRole('heading', { level: 1, name: 'Infrastructure' })).toBeInTheDocument()
      // (StrictMode runs the effect twice; each time to the same section.)
      expect(scrolled.length).toBeGreaterThan(0)
      expect(new Set(scrolled)).toEqual(new Set(['disk_space']))
    } finally {
      window.location.hash = ''
      scroll.mockRestore()
    }
  })
})
