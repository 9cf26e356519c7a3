import { afterEach, describe, expect, it, vi } from 'vitest'
import { restoreProject } from '../../src/api/calls/pause'

afterEach(() => vi.unstubAllGlobals())

// Spec 8: the restore mutation without a project fails with its own words, and sends nothing.
describe('restore call', () => {
  it("without a project ref it fails with 'Unable to restore: project is required' and sends no request", async () => {
    const fetch = vi.fn()
    vi.stubGlobal('fetch', fetch)
    for (const ref of [undefined, '']) await expect(restoreProject(ref)).rejects.toThrow(/^Unable to restore: project is required$/)
    expect(fetch).not.toHaveBeenCalled()
  })
})
