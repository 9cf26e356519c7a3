/**
 * The machines of the remaining project screens, pinned to the spec: the custom domain's mapping of refusals
 * (spec 8), the active custom domain's URL, PITR changes only on a paid plan by those who may, a support request
 * the contract would refuse is never sent, time-outs.
 */
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { customDomainMachine, pseudoStatusOf, selectCustomDomainUrl, selectCustomDomainView } from '../../machines/customDomain.machine'
import { projectAddonsMachine, selectProjectAddonsView, type AddonChange } from '../../machines/projectAddons.machine'
import { selectSupportTicketView, supportTicketMachine } from '../../machines/supportTicket.machine'
import type { CustomHostnameResponse, ProjectAddons } from '../../src/contracts/settings'
import type { CreateTicketBody, SupportTicket } from '../../src/contracts/support'
import { REF } from '../fixtures'
import { answeringEndpoint, scriptedEndpoint, usePathClock, type Scripted } from '../../model-tests/fakes'

usePathClock()

const answer = (status: string): CustomHostnameResponse => ({
  status: status === 'active' ? '5_services_reconfigured' : '2_initiated',
  custom_hostname: 'api.acme.test',
  data: {
    success: true,
    errors: [],
    messages: [],
    result: {
      id: 'x',
      hostname: 'api.acme.test',
      ssl: { status: 'active', validation_records: [] },
      ownership_verification: { type: 'txt', name: 'n', value: 'v' },
      custom_origin_server: 'o',
      status,
    },
  },
})

/** The custom hostname endpoint answers every read the same: a hostname, a failure, or never ('hang'). */
function domainActor(reply: Scripted<CustomHostnameResponse>) {
  return createActor(customDomainMachine.provide({ actors: { fetchCustomHostname: scriptedEndpoint<CustomHostnameResponse, { ref: string }>([], reply).actor } }), { input: { ref: REF } }).start()
}

describe('custom domain', () => {
  it("maps a message containing 'not allowed to set up custom domain' to 0_not_allowed", async () => {
    const actor = domainActor(new Error('Sorry: project is not allowed to set up custom domain'))
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().context.domain).toEqual({ status: '0_not_allowed' })
    expect(selectCustomDomainView(actor.getSnapshot())).toEqual({ phase: 'notAllowed' })
    expect(selectCustomDomainUrl(actor.getSnapshot())).toBeNull()
  })

  it("maps one containing 'custom hostname configuration' to 0_no_hostname_configured", () => {
    expect(pseudoStatusOf(new Error('Failed to retrieve custom hostname configuration'))).toEqual({ status: '0_no_hostname_configured' })
  })

  it('raises every other error', async () => {
    const actor = domainActor(new Error('Request failed with status 500'))
    await vi.advanceTimersByTimeAsync(0)
    expect(selectCustomDomainView(actor.getSnapshot())).toEqual({ phase: 'failed', error: 'Request failed with status 500' })
  })

  it('gives https://{hostname} as the project URL only once the hostname is active', async () => {
    const active = domainActor(answer('active'))
    const pending = domainActor(answer('pending'))
    await vi.advanceTimersByTimeAsync(0)
    expect(selectCustomDomainUrl(active.getSnapshot())).toBe('https://api.acme.test')
    expect(selectCustomDomainUrl(pending.getSnapshot())).toBeNull()
  })

  it('gives up after its time-out', async () => {
    const actor = domainActor('hang')
    await vi.advanceTimersByTimeAsync(10_000)
    expect(selectCustomDomainView(actor.getSnapshot())).toEqual({ phase: 'failed', error: 'The request timed out' })
  })
})

const NONE: ProjectAddons = { ref: REF, selected_addons: [], available_addons: [{ type: 'pitr', name: 'PITR', variants: [{ identifier: 'pitr_7', name: '7 days' }] }] }

function addonsActor(input: { paidPlan: boolean; mayChange: boolean }, change = vi.fn(async (_: unknown): Promise<ProjectAddons> => NONE)) {
  const actor = createActor(
    projectAddonsMachine.provide({ actors: { fetchAddons: scriptedEndpoint<ProjectAddons, { ref: string }>([], NONE).actor, changeAddon: answeringEndpoint<ProjectAddons, { ref: string; change: AddonChange }>((request) => change(request)).actor } }),
    { input: { ref: REF, ...input } },
  ).start()
  return { actor, change }
}

describe('project add-ons', () => {
  it('never asks to enable PITR on the free plan, nor for a Developer', async () => {
    for (const input of [{ paidPlan: false, mayChange: true }, { paidPlan: true, mayChange: false }]) {
      const { actor, change } = addonsActor(input)
      await vi.advanceTimersByTimeAsync(0)
      expect(actor.getSnapshot().can({ type: 'pitr.enable', variant: 'pitr_7' })).toBe(false)
      actor.send({ type: 'pitr.enable', variant: 'pitr_7' })
      expect(change).not.toHaveBeenCalled()
    }
  })

  it('cannot disable what is not enabled', async () => {
    const { actor } = addonsActor({ paidPlan: true, mayChange: true })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().can({ type: 'pitr.disable' })).toBe(false)
  })

  it('keeps the add-ons as they were when a change fails, and says why', async () => {
    const { actor, change } = addonsActor({ paidPlan: true, mayChange: true }, vi.fn(async (_: unknown): Promise<ProjectAddons> => Promise.reject(new Error('Only Owners'))))
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'pitr.enable', variant: 'pitr_7' })
    await vi.advanceTimersByTimeAsync(0)
    expect(change).toHaveBeenCalledWith({ ref: REF, change: { kind: 'enable', variant: 'pitr_7' } })
    expect(selectProjectAddonsView(actor.getSnapshot())).toMatchObject({ phase: 'ready', pitr: null, error: 'Only Owners', saved: null })
  })
})

describe('support ticket', () => {
  it('sends nothing the contract would refuse (an empty subject or message)', async () => {
    const send = vi.fn(async (): Promise<SupportTicket> => ({ id: '1', category: 'Problem', project_ref: null, subject: 's', message: 'm', created_at: '' }))
    const actor = createActor(supportTicketMachine.provide({ actors: { sendTicket: answeringEndpoint<SupportTicket, CreateTicketBody>(send).actor } }), { input: {} }).start()
    actor.send({ type: 'ticket.edit', draft: { subject: '  ', message: 'm' } })
    actor.send({ type: 'ticket.send' })
    actor.send({ type: 'ticket.edit', draft: { subject: 's', message: '' } })
    actor.send({ type: 'ticket.send' })
    expect(send).not.toHaveBeenCalled()
    actor.send({ type: 'ticket.edit', draft: { subject: 's', message: 'm' } })
    actor.send({ type: 'ticket.send' })
    await vi.advanceTimersByTimeAsync(0)
    expect(selectSupportTicketView(actor.getSnapshot()).phase).toBe('sent')
  })

  it('reports a send that times out and can send again', async () => {
    const actor = createActor(supportTicketMachine.provide({ actors: { sendTicket: scriptedEndpoint<SupportTicket, CreateTicketBody>([], 'hang').actor } }), { input: {} }).start()
    actor.send({ type: 'ticket.edit', draft: { subject: 's', message: 'm' } })
    actor.send({ type: 'ticket.send' })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(selectSupportTicketView(actor.getSnapshot())).toEqual({ phase: 'editing', error: 'The request timed out: the support request was not sent' })
    expect(actor.getSnapshot().can({ type: 'ticket.send' })).toBe(true)
  })
})
