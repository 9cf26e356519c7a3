import { describe, expect, it } from 'vitest'
import { resolveProjectPage, type ProjectPage } from '../../machines/projectPage'
import type { PostgrestStatus, ProjectStatus } from '../../src/contracts/common'

const page = (status: ProjectStatus, section: string, postgrestStatus: PostgrestStatus = 'ONLINE') =>
  resolveProjectPage({ status, postgrestStatus }, section)

const SETTINGS = ['settings/general', 'settings/database', 'settings/api', 'settings/auth', 'settings/storage', 'settings/infrastructure', 'settings/addons']
const TOOLS = ['editor', 'sql/new', 'sql/1', 'database/tables', 'auth/users', 'storage/buckets', 'functions', 'realtime/inspector', 'logs/explorer', 'api', 'api/graphiql', 'building']

describe('resolveProjectPage: the layout rules of spec section 4', () => {
  it('a healthy, online project shows every page normally', () => {
    for (const section of ['', ...TOOLS, ...SETTINGS, 'settings/vault', 'reports', 'branches', 'database/backups/scheduled']) {
      expect(page('ACTIVE_HEALTHY', section), section).toBe('normal')
    }
  })

  describe('inactive (paused)', () => {
    it('shows the paused page on tool pages', () => {
      for (const section of [...TOOLS, 'reports', 'branches', 'database/backups/scheduled']) expect(page('INACTIVE', section), section).toBe('paused')
    })
    it('renders project home and every settings page normally, vault included', () => {
      for (const section of ['', ...SETTINGS, 'settings/vault']) expect(page('INACTIVE', section), section).toBe('normal')
    })
  })

  it('upgrading shows the upgrade page everywhere', () => {
    for (const section of ['', ...TOOLS, ...SETTINGS, 'reports', 'branches']) expect(page('UPGRADING', section), section).toBe('upgrading')
  })

  it('going down and pausing show the pausing page everywhere', () => {
    for (const status of ['GOING_DOWN', 'PAUSING'] as const) {
      for (const section of ['', ...TOOLS, ...SETTINGS]) expect(page(status, section), `${status} ${section}`).toBe('pausing')
    }
  })

  describe('API server offline', () => {
    it('shows the connecting page on home, tools and the other settings pages', () => {
      for (const section of ['', ...TOOLS, 'settings/api', 'settings/auth', 'settings/storage', 'settings/vault', 'branches']) {
        expect(page('ACTIVE_HEALTHY', section, 'OFFLINE'), section).toBe('connecting')
      }
    })
    it('leaves reports and settings general, database, infrastructure and addons alone', () => {
      for (const section of ['reports', 'settings/general', 'settings/database', 'settings/infrastructure', 'settings/addons']) {
        expect(page('ACTIVE_HEALTHY', section, 'OFFLINE'), section).toBe('normal')
      }
    })
    it('keeps the anchor and panel query of settings pages out of the rule', () => {
      expect(page('ACTIVE_HEALTHY', 'settings/infrastructure#cpu', 'OFFLINE')).toBe('normal')
      expect(page('ACTIVE_HEALTHY', 'settings/addons?panel=pitr', 'OFFLINE')).toBe('normal')
    })
  })

  describe('restoring and building', () => {
    const cases: Array<[ProjectStatus, ProjectPage]> = [
      ['RESTORING', 'restoring'],
      ['RESTORATION_FAILED', 'restoring'],
      ['COMING_UP', 'building'],
      ['UNKNOWN', 'building'],
    ]
    it.each(cases)('%s takes over home and tool pages', (status, expected) => {
      for (const section of ['', ...TOOLS, 'reports']) expect(page(status, section), section).toBe(expected)
    })
    it.each(cases)('%s leaves settings, branches and scheduled backups alone', (status) => {
      for (const section of [...SETTINGS, 'branches', 'database/backups/scheduled']) expect(page(status, section), section).toBe('normal')
    })
    it.each(cases)('%s treats the vault settings page as a normal page', (status, expected) => {
      expect(page(status, 'settings/vault')).toBe(expected)
    })
  })

  it('applies the rules in the spec order when several match', () => {
    // Upgrading and pausing win over the API server being offline; offline wins over building.
    expect(page('UPGRADING', 'editor', 'OFFLINE')).toBe('upgrading')
    expect(page('PAUSING', 'editor', 'OFFLINE')).toBe('pausing')
    expect(page('COMING_UP', 'editor', 'OFFLINE')).toBe('connecting')
    expect(page('INACTIVE', 'editor', 'OFFLINE')).toBe('paused')
    expect(page('INACTIVE', 'settings/api', 'OFFLINE')).toBe('normal')
  })

  it('accepts a section with leading or trailing slashes', () => {
    expect(page('INACTIVE', '/settings/general/')).toBe('normal')
    expect(page('COMING_UP', '/branches')).toBe('normal')
  })
})
