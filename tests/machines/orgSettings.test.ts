/**
 * The machines pinned to the rules: organizationSettings (what a save sends, the name rule, the
 * permission), planChange (never the current plan, only with organizations:write, the dialog kept on failure) and
 * aiSettings (the AI_SQL opt-in in the platform build only, the value sent, time-outs).
 */
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { aiSettingsMachine, selectAiSettingsView } from '../../machines/aiSettings.machine'
import { changesOf, nameError, organizationSettingsMachine, selectOrganizationSettingsView, type OrganizationSettingsData } from '../../machines/organizationSettings.machine'
import { planChangeMachine, selectPlanChangeView, type BillingData } from '../../machines/planChange.machine'
import type { Organization, Subscription } from '../../src/contracts/organizations'
import type { AiSettings, SelectablePlanId, UpdateOrganizationBody } from '../../src/contracts/orgSettings'
import { answeringEndpoint, scriptedEndpoint, usePathClock } from '../../model-tests/fakes'

const ORG: Organization = { id: 1, slug: 'demo-free', name: 'Demo Free Org', plan: { id: 'free' }, opt_in_tags: [] }
const flush = () => vi.advanceTimersByTimeAsync(0)

usePathClock()

describe('organizationSettings', () => {
  it('sends only what changed: the trimmed name, the opt-in tags', () => {
    expect(changesOf(ORG, { name: 'Demo Free Org', aiSql: false })).toBeNull()
    expect(changesOf(ORG, { name: '  Demo Free Org ', aiSql: false })).toBeNull()
    expect(changesOf(ORG, { name: ' New ', aiSql: false })).toEqual({ name: 'New' })
    expect(changesOf(ORG, { name: 'Demo Free Org', aiSql: true })).toEqual({ opt_in_tags: ['AI_SQL'] })
    expect(changesOf({ ...ORG, opt_in_tags: ['AI_SQL'] }, { name: 'Demo Free Org', aiSql: false })).toEqual({ opt_in_tags: [] })
  })

  it("checks the name by the contract's rule", () => {
    expect(nameError('')).toBe('Organization name is required')
    expect(nameError('   ')).toBe('Organization name is required')
    expect(nameError('x'.repeat(65))).toBe('Organization name must be at most 64 characters')
    expect(nameError('Fine')).toBeNull()
  })

  type SaveInput = { slug: string; body: UpdateOrganizationBody }
  function start(permissions: BillingData['permissions'], save = vi.fn(async (input: SaveInput): Promise<Organization> => ({ ...ORG, ...input.body }))) {
    const machine = organizationSettingsMachine.provide({
      actors: {
        fetchOrganizationSettings: scriptedEndpoint<OrganizationSettingsData, { slug: string }>([], { organization: ORG, permissions }).actor,
        saveOrganization: answeringEndpoint(save).actor,
      },
    })
    return { actor: createActor(machine, { input: { slug: 'demo-free' } }).start(), save }
  }

  it('refuses edits and saves without organizations:write', async () => {
    const { actor, save } = start(['projects:write'])
    await flush()
    actor.send({ type: 'draft.edit', draft: { name: 'Hijacked' } })
    actor.send({ type: 'settings.save' })
    expect(actor.getSnapshot().value).toBe('idle')
    expect(actor.getSnapshot().context.draft.name).toBe('Demo Free Org')
    expect(save).not.toHaveBeenCalled()
    actor.stop()
  })

  it('does not save an invalid name, and shows why', async () => {
    const { actor, save } = start(['organizations:write'])
    await flush()
    actor.send({ type: 'draft.edit', draft: { name: '  ' } })
    actor.send({ type: 'settings.save' })
    expect(save).not.toHaveBeenCalled()
    const view = selectOrganizationSettingsView(actor.getSnapshot())
    expect(view.phase === 'ready' && view.nameError).toBe('Organization name is required')
    actor.stop()
  })

  it('keeps the draft through a time-out and saves it on the next try', async () => {
    let calls = 0
    const save = vi.fn((input: SaveInput): Promise<Organization> => {
      calls += 1
      return calls === 1 ? new Promise<Organization>(() => {}) : Promise.resolve({ ...ORG, ...input.body })
    })
    const { actor } = start(['organizations:write'], save)
    await flush()
    actor.send({ type: 'draft.edit', draft: { aiSql: true } })
    actor.send({ type: 'settings.save' })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(actor.getSnapshot().value).toBe('failed')
    expect(actor.getSnapshot().context.error).toBe('The request timed out')
    expect(actor.getSnapshot().context.draft.aiSql).toBe(true)
    actor.send({ type: 'settings.save' })
    await flush()
    expect(actor.getSnapshot().value).toBe('saved')
    expect(save.mock.calls[1][0].body).toEqual({ opt_in_tags: ['AI_SQL'] })
    actor.stop()
  })
})

describe('planChange', () => {
  const DATA: BillingData = {
    organization: ORG,
    subscription: { plan: { id: 'free', name: 'Free' }, usage_billing_enabled: false },
    plans: [
      { id: 'free', name: 'Free', price_monthly: 0, description: '', features: [] },
      { id: 'pro', name: 'Pro', price_monthly: 25, description: '', features: [] },
      { id: 'team', name: 'Team', price_monthly: 599, description: '', features: [] },
    ],
    permissions: ['organizations:write'],
  }

  type ChangeInput = { slug: string; plan: SelectablePlanId }
  function start(data: BillingData, change = vi.fn(async (_input: ChangeInput): Promise<Subscription> => ({ plan: { id: 'pro', name: 'Pro' }, usage_billing_enabled: false }))) {
    const machine = planChangeMachine.provide({ actors: { fetchBilling: scriptedEndpoint<BillingData, { slug: string }>([], data).actor, changePlan: answeringEndpoint(change).actor } })
    return { actor: createActor(machine, { input: { slug: 'demo-free' } }).start(), change }
  }

  it('never offers the current plan, and nothing without organizations:write', async () => {
    const { actor } = start(DATA)
    await flush()
    expect(actor.getSnapshot().can({ type: 'plan.select', plan: 'free' })).toBe(false)
    expect(actor.getSnapshot().can({ type: 'plan.select', plan: 'pro' })).toBe(true)
    actor.stop()
    const other = start({ ...DATA, permissions: ['projects:write'] }).actor
    await flush()
    expect(other.getSnapshot().can({ type: 'plan.select', plan: 'pro' })).toBe(false)
    other.stop()
  })

  it('changes the plan chosen after the confirmation, and the page shows the new plan', async () => {
    const { actor, change } = start(DATA)
    await flush()
    actor.send({ type: 'plan.select', plan: 'pro' })
    expect(change).not.toHaveBeenCalled()
    actor.send({ type: 'plan.confirm' })
    await flush()
    expect(change.mock.calls[0][0]).toEqual({ slug: 'demo-free', plan: 'pro' })
    const view = selectPlanChangeView(actor.getSnapshot())
    expect(view.phase === 'ready' && view.data.subscription.plan.id).toBe('pro')
    expect(view.phase === 'ready' && view.changedTo).toBe('Pro')
    // Pro is now current: it cannot be chosen again.
    expect(actor.getSnapshot().can({ type: 'plan.select', plan: 'pro' })).toBe(false)
    actor.stop()
  })

  it('keeps the dialog with the message when the change fails; cancel closes it with the plan unchanged', async () => {
    const { actor } = start(DATA, vi.fn(async () => Promise.reject(new Error('Internal server error'))))
    await flush()
    actor.send({ type: 'plan.select', plan: 'team' })
    actor.send({ type: 'plan.confirm' })
    await flush()
    const view = selectPlanChangeView(actor.getSnapshot())
    expect(view.phase === 'ready' && view.dialog).toMatchObject({ plan: { id: 'team' }, error: 'Internal server error', changing: false })
    actor.send({ type: 'plan.cancel' })
    const after = selectPlanChangeView(actor.getSnapshot())
    expect(after.phase === 'ready' && after.dialog).toBeNull()
    expect(after.phase === 'ready' && after.data.subscription.plan.id).toBe('free')
    actor.stop()
  })
})

describe('aiSettings', () => {
  const SETTINGS: AiSettings = { send_anonymous_schema_metadata: true, organization_slug: 'demo-free', organization_opt_in_tags: [] }

  function start(settings: AiSettings, isPlatform: boolean) {
    const save = vi.fn(async (input: { ref: string; send: boolean }) => ({ ...settings, send_anonymous_schema_metadata: input.send }))
    const machine = aiSettingsMachine.provide({ actors: { fetchAiSettings: scriptedEndpoint<AiSettings, { ref: string }>([], settings).actor, saveAiSettings: answeringEndpoint(save).actor } })
    return { actor: createActor(machine, { input: { ref: 'abcdefghijklmnopqrst', isPlatform } }).start(), save }
  }

  it('platform build without AI_SQL: disabled, shown off, with the notice and the link to the organization settings', async () => {
    const { actor, save } = start(SETTINGS, true)
    await flush()
    expect(actor.getSnapshot().can({ type: 'schemaMetadata.toggle' })).toBe(false)
    actor.send({ type: 'schemaMetadata.toggle' })
    expect(save).not.toHaveBeenCalled()
    expect(selectAiSettingsView(actor.getSnapshot())).toMatchObject({
      checked: false,
      notAllowed: { text: 'Your organization does not allow sending anonymous data to OpenAI', href: '/org/demo-free/general' },
    })
    actor.stop()
  })

  it('platform build with AI_SQL: the stored value shows, a toggle sends its opposite', async () => {
    const { actor, save } = start({ ...SETTINGS, organization_opt_in_tags: ['AI_SQL'] }, true)
    await flush()
    expect(selectAiSettingsView(actor.getSnapshot())).toMatchObject({ checked: true, notAllowed: null })
    actor.send({ type: 'schemaMetadata.toggle' })
    await flush()
    expect(save.mock.calls[0][0]).toEqual({ ref: 'abcdefghijklmnopqrst', send: false })
    expect(selectAiSettingsView(actor.getSnapshot())).toMatchObject({ checked: false, outcome: { kind: 'saved', text: 'Successfully saved settings' } })
    actor.stop()
  })

  it('self-hosted build: the opt-in does not apply', async () => {
    const { actor, save } = start({ ...SETTINGS, send_anonymous_schema_metadata: false }, false)
    await flush()
    expect(selectAiSettingsView(actor.getSnapshot())).toMatchObject({ checked: false, notAllowed: null })
    actor.send({ type: 'schemaMetadata.toggle' })
    await flush()
    expect(save.mock.calls[0][0].send).toBe(true)
    expect(actor.getSnapshot().value).toBe('saved')
    actor.stop()
  })

  it('a load unanswered for 10 s fails with a clear message and can be tried again', async () => {
    const machine = aiSettingsMachine.provide({ actors: { fetchAiSettings: scriptedEndpoint<AiSettings, { ref: string }>([], 'hang').actor } })
    const actor = createActor(machine, { input: { ref: 'abcdefghijklmnopqrst', isPlatform: true } }).start()
    await vi.advanceTimersByTimeAsync(9_999)
    expect(actor.getSnapshot().value).toBe('loading')
    await vi.advanceTimersByTimeAsync(1)
    expect(selectAiSettingsView(actor.getSnapshot())).toEqual({ phase: 'loadFailed', error: 'The request timed out' })
    actor.stop()
  })
})
