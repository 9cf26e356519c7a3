import { describe, expect, it } from 'vitest'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../../machines/projectDatabaseTimeout'
import { loadConfig } from '../../src/server/config'

describe("the dashboard's wait for answers from a project's database", () => {
  it("outlasts the platform's own bounds (a slot's wait, then the statements' time-out), so the platform's answer arrives", () => {
    const { projectDb } = loadConfig({})
    expect(PROJECT_DATABASE_TIMEOUT_MS).toBeGreaterThan(projectDb.slotWaitMs + projectDb.queryTimeoutMs)
  })
})
