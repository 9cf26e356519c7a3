/**
 * Organization settings, the plan panel and the AI settings dialog under bad answers, through the real HTTP client
 * and contracts: a load that fails in any way (an error, a body that is not JSON or breaks the contract, no answer)
 * says why with a retry; a save or change that fails says why and loses nothing typed or chosen.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { liveAiSettingsMachine, liveOrganizationSettingsMachine, livePlanChangeMachine } from '../../src/api/live/orgSettings'
import type { AiSettings } from '../../src/contracts/orgSettings'
import { OrganizationBillingPage } from '../../src/views/org/OrganizationBillingPage'
import { OrganizationGeneralPage } from '../../src/views/org/OrganizationGeneralPage'
import { AiSettingsDialog } from '../../src/views/project/ai/AiSettingsDialog'
import { REF } from '../fixtures'
import { ORGS, badAnswerCases, json, stubFetch, useFakeClock, type Answer } from '../fakePlatform'

useFakeClock(0)

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))
const bad = (extra: Array<[string, Answer, RegExp]>): Array<[string, Answer, RegExp]> => [
  ...badAnswerCases(),
  ...extra,
]

const ORG = ORGS[0]
const SETTINGS: AiSettings = { send_anonymous_schema_metadata: false, organization_slug: 'demo-free', organization_opt_in_tags: ['AI_SQL'] }
const PERMISSIONS = json([{ organization_id: 1, organization_slug: 'demo-free', role: 'Owner', permissions: ['organizations:write'] }])
const PLANS = json({ plans: [{ id: 'pro', name: 'Pro', price_monthly: 25, description: 'Pro', features: [] }] })
const FREE = json({ plan: { id: 'free', name: 'Free' }, usage_billing_enabled: false })

describe('AI settings dialog under bad answers', () => {
  const AI_PATH = /^\/platform\/projects\/[a-z]{20}\/ai-settings$/

  it.each(
    bad([
      ['opt-in tags that are not a list', json({ ...SETTINGS, organization_opt_in_tags: 'AI_SQL' }), /Malformed response .* at organization_opt_in_tags/],
      ['a setting that is not a boolean', json({ ...SETTINGS, send_anonymous_schema_metadata: 'yes' }), /Malformed response .* at send_anonymous_schema_metadata/],
    ]),
  )('loading, %s: a clear error, and Try again loads it', async (_name, answer, message) => {
    stubFetch({ polled: AI_PATH, answers: [answer], fallback: json(SETTINGS) })
    const actor = createActor(liveAiSettingsMachine, { input: { ref: REF, isPlatform: true } }).start()
    render(<AiSettingsDialog actor={actor} onClose={() => {}} />)
    await advance(10_000)
    const alert = screen.getByRole('alert')
    expect(alert).toHaveTextContent('Failed to load AI settings')
    expect(alert).toHaveTextContent(message)
    await act(async () => within(alert).getByRole('button', { name: 'Try again' }).click())
    await advance(0)
    expect(screen.getByRole('switch', { name: 'Send anonymous schema metadata' })).toBeEnabled()
    actor.stop()
  })

  it.each(bad([['a saved setting without its organization', json({ send_anonymous_schema_metadata: true }), /Malformed response .* at organization_slug/]]))(
    'saving, %s: says why, and the switch keeps the stored value',
    async (_name, answer, message) => {
      stubFetch({ polled: AI_PATH, answers: [json(SETTINGS), answer], fallback: json(SETTINGS) })
      const actor = createActor(liveAiSettingsMachine, { input: { ref: REF, isPlatform: true } }).start()
      render(<AiSettingsDialog actor={actor} onClose={() => {}} />)
      await advance(0)
      await act(async () => screen.getByRole('switch', { name: 'Send anonymous schema metadata' }).click())
      await advance(10_000)
      expect(screen.getByRole('alert')).toHaveTextContent(/^Failed to save settings: /)
      expect(screen.getByRole('alert')).toHaveTextContent(message)
      expect(screen.getByRole('switch', { name: 'Send anonymous schema metadata' })).not.toBeChecked()
      actor.stop()
    },
  )
})

describe('organization settings under bad answers', () => {
  const ORG_PATH = /^\/platform\/organizations\/demo-free$/

  it.each(bad([['an organization without its opt-in tags', json({ ...ORG, opt_in_tags: undefined }), /Malformed response .* at opt_in_tags/]]))(
    'loading, %s: a clear error with a retry',
    async (_name, answer, message) => {
      stubFetch({ polled: ORG_PATH, answers: [answer], fallback: json(ORG), fixed: [[/^\/platform\/profile\/permissions$/, PERMISSIONS]] })
      const actor = createActor(liveOrganizationSettingsMachine, { input: { slug: 'demo-free' } }).start()
      render(<OrganizationGeneralPage settings={actor} />)
      await advance(10_000)
      expect(screen.getByRole('alert')).toHaveTextContent('Failed to load organization')
      expect(screen.getByRole('alert')).toHaveTextContent(message)
      actor.stop()
    },
  )

  it.each(bad([['an answer that is not an organization', json({ ok: true }), /Malformed response/]]))(
    'saving, %s: says why and keeps the typed name for the next try',
    async (_name, answer, message) => {
      stubFetch({ polled: ORG_PATH, answers: [json(ORG), answer], fallback: json({ ...ORG, name: 'Typed name' }), fixed: [[/^\/platform\/profile\/permissions$/, PERMISSIONS]] })
      const actor = createActor(liveOrganizationSettingsMachine, { input: { slug: 'demo-free' } }).start()
      render(<OrganizationGeneralPage settings={actor} />)
      await advance(0)
      const input = screen.getByRole('textbox', { name: 'Organization name' })
      await act(async () => {
        fireEvent.change(input, { target: { value: 'Typed name' } })
      })
      await act(async () => screen.getByRole('button', { name: 'Save' }).click())
      await advance(10_000)
      expect(screen.getByRole('alert')).toHaveTextContent(/^Failed to save settings: /)
      expect(screen.getByRole('alert')).toHaveTextContent(message)
      expect(input).toHaveValue('Typed name')
      await act(async () => screen.getByRole('button', { name: 'Save' }).click())
      await advance(0)
      expect(screen.getByRole('status')).toHaveTextContent('Organization settings saved')
      actor.stop()
    },
  )
})

describe('plan panel under bad answers', () => {
  const SUBSCRIPTION_PATH = /^\/platform\/organizations\/demo-free\/billing\/subscription$/
  const fixed: Array<[RegExp, Answer]> = [
    [/^\/platform\/organizations\/demo-free$/, json(ORG)],
    [/^\/platform\/organizations\/demo-free\/billing\/plans$/, PLANS],
    [/^\/platform\/profile\/permissions$/, PERMISSIONS],
  ]

  it.each(bad([['a plan that is not one of the plans', json({ plan: { id: 'gold', name: 'Gold' }, usage_billing_enabled: false }), /Malformed response .* at plan\.id/]]))(
    'loading, %s: a clear error with a retry',
    async (_name, answer, message) => {
      stubFetch({ polled: SUBSCRIPTION_PATH, answers: [answer], fallback: FREE, fixed })
      const actor = createActor(livePlanChangeMachine, { input: { slug: 'demo-free' } }).start()
      render(<OrganizationBillingPage planChange={actor} panel="subscriptionPlan" />)
      await advance(10_000)
      expect(screen.getByRole('alert')).toHaveTextContent('Failed to load the subscription')
      expect(screen.getByRole('alert')).toHaveTextContent(message)
      actor.stop()
    },
  )

  it.each(bad([['an answer that is not a subscription', json({ plan: 'pro' }), /Malformed response .* at plan/]]))(
    'changing, %s: the dialog stays with the message, and confirming again changes the plan',
    async (_name, answer, message) => {
      stubFetch({ polled: SUBSCRIPTION_PATH, answers: [FREE, answer], fallback: json({ plan: { id: 'pro', name: 'Pro' }, usage_billing_enabled: false }), fixed })
      const actor = createActor(livePlanChangeMachine, { input: { slug: 'demo-free' } }).start()
      render(<OrganizationBillingPage planChange={actor} panel="subscriptionPlan" />)
      await advance(0)
      await act(async () => screen.getByRole('button', { name: 'Change to Pro' }).click())
      await advance(0)
      await act(async () => screen.getByRole('button', { name: 'Confirm Pro plan' }).click())
      await advance(10_000)
      const dialog = screen.getByRole('dialog')
      expect(within(dialog).getByRole('alert')).toHaveTextContent(/^Failed to change the plan: /)
      expect(within(dialog).getByRole('alert')).toHaveTextContent(message)
      await act(async () => within(dialog).getByRole('button', { name: 'Confirm Pro plan' }).click())
      await advance(0)
      expect(screen.getByRole('status')).toHaveTextContent('Your organization is now on the Pro plan')
      actor.stop()
    },
  )
})
