import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLifecycle, scheduleTransition } from '../../src/server/engine/lifecycle'
import { json, projectByName, startTestServer, type TestServer } from './helpers'

describe('the lifecycle registry', () => {
  it('refuses a second handler for a kind', () => {
    const lifecycle = createLifecycle()
    lifecycle.registerTransition('demo.kind', async () => 'applied')
    expect(() => lifecycle.registerTransition('demo.kind', async () => 'applied')).toThrow(/'demo\.kind' is already registered/)
  })

  it('belongs to one app instance: a fresh registry knows no kind, and two registries do not share handlers', () => {
    const a = createLifecycle()
    const b = createLifecycle()
    a.registerTransition('demo.kind', async () => 'from a')
    expect(b.handlerFor('demo.kind')).toBeUndefined()
    expect(() => b.registerTransition('demo.kind', async () => 'from b')).not.toThrow()
    expect(createLifecycle().handlerFor('project.status')).toBeUndefined()
  })

  it('runs the entry hooks in the order they were contributed', async () => {
    const lifecycle = createLifecycle()
    const seen: string[] = []
    lifecycle.onEntry(async (_tx, id, status) => void seen.push(`first ${id} ${status}`))
    lifecycle.onEntry(async (_tx, id, status) => void seen.push(`second ${id} ${status}`))
    const tx = { query: async () => ({ rows: [] }), exec: async () => {} }
    await lifecycle.enterStatus(tx, 7, 'PAUSING', new Date())
    expect(seen).toEqual(['first 7 PAUSING', 'second 7 PAUSING'])
  })
})

describe('the engine with the app’s registry', () => {
  let s: TestServer
  beforeAll(async () => {
    s = await startTestServer()
  })
  afterAll(() => s?.close())

  it('has a handler for every kind the features schedule', () => {
    for (const kind of ['project.status', 'project.restore', 'project.upgrade.step', 'jwt.secret.update']) {
      expect(s.lifecycle.handlerFor(kind), kind).toBeDefined()
    }
  })

  it('records a row of an unknown kind as skipped and leaves the project alone', async () => {
    const { id } = await projectByName(s, 'Recipe Box')
    const now = s.clock.now()
    await s.db.transaction((tx) => scheduleTransition(tx, id, 'no.such.kind', {}, now, now))
    expect(await s.engine.runDue()).toBeGreaterThanOrEqual(1)
    const { rows } = await s.db.query<{ outcome: string; done: boolean }>(
      `select outcome, done_at is not null as done from lifecycle_transitions where kind = 'no.such.kind'`,
    )
    expect(rows).toEqual([{ outcome: 'skipped: unknown kind no.such.kind', done: true }])
    expect((await projectByName(s, 'Recipe Box')).status).toBe('ACTIVE_HEALTHY')
  })

  it('records a handler that throws as an error outcome, once', async () => {
    const { id } = await projectByName(s, 'Recipe Box')
    s.lifecycle.registerTransition('test.throws', async () => {
      throw new Error('handler broke')
    })
    const now = s.clock.now()
    await s.db.transaction((tx) => scheduleTransition(tx, id, 'test.throws', {}, now, now))
    const logged: string[] = []
    const original = console.error
    console.error = (msg: string) => void logged.push(msg)
    try {
      await s.engine.runDue()
    } finally {
      console.error = original
    }
    expect(logged.join('\n')).toMatch(/test\.throws\) failed: handler broke/)
    const { rows } = await s.db.query<{ outcome: string }>(`select outcome from lifecycle_transitions where kind = 'test.throws'`)
    expect(rows).toEqual([{ outcome: 'error: handler broke' }])
    expect(await s.engine.runDue()).toBe(0)
  })

  it('a status set from outside cancels what was pending and schedules what the new status needs', async () => {
    const created = await s.request('/dev/projects', json({ organization_slug: 'demo-pro', name: 'Hooked', status: 'COMING_UP' }))
    expect(created.status).toBe(201)
    const { id } = await projectByName(s, 'Hooked')
    await s.db.transaction((tx) => s.lifecycle.move(tx, id, { from: 'any', to: 'GOING_DOWN', run: 'entry' }, s.clock.now()))
    const { rows } = await s.db.query<{ kind: string; payload: { from?: string; to?: string }; outcome: string | null }>(
      'select kind, payload, outcome from lifecycle_transitions where project_id = $1 order by id',
      [id],
    )
    expect(rows).toEqual([
      { kind: 'project.status', payload: { from: 'COMING_UP', to: 'ACTIVE_HEALTHY' }, outcome: 'cancelled' },
      { kind: 'project.status', payload: { from: 'GOING_DOWN', to: 'PAUSING' }, outcome: null },
      { kind: 'project.status', payload: { from: 'PAUSING', to: 'INACTIVE' }, outcome: null },
    ])
  })
})
