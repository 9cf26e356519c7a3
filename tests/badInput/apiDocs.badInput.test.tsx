/**
 * The API docs panel under bad answers, through the real HTTP client and contracts: for each of its four reads, a
 * failed call, a time-out or a malformed body shows a clear message where that resource shows, with Try again, while
 * the panel and the other resources stay on screen.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { NO_DOCS_URL, type DocsSection } from '../../machines/apiDocs.machine'
import { liveApiDocsMachine } from '../../src/api/live/apiDocs'
import { ApiDocsPanel } from '../../src/views/project/apiDocs/ApiDocsPanel'
import { REF } from '../fixtures'
import { BUCKETS, EDGE_FUNCTIONS, REST_SCHEMA } from '../fixtures.apiDocs'
import { makeApiInfo } from '../fixtures.keys'
import { ALL_PERMISSIONS, badAnswerCases, json, stubFetch, useFakeClock, type Answer } from '../fakePlatform'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../../machines/projectDatabaseTimeout'

useFakeClock(0)

const PATHS = {
  schema: new RegExp(`^/platform/projects/${REF}/api/rest$`),
  settings: new RegExp(`^/platform/props/project/${REF}/api$`),
  buckets: new RegExp(`^/platform/storage/${REF}/buckets$`),
  functions: new RegExp(`^/v1/projects/${REF}/functions$`),
}
const GOOD: Record<keyof typeof PATHS, Answer> = {
  schema: json(REST_SCHEMA),
  settings: json(makeApiInfo()),
  buckets: json(BUCKETS),
  functions: json(EDGE_FUNCTIONS),
}

interface ResourceCase {
  resource: keyof typeof PATHS
  section: DocsSection
  title: string
  malformed: Array<[string, Answer, RegExp]>
  /** What the section shows once the resource loads. */
  loaded: () => HTMLElement
  /** Another section, loaded meanwhile: the failure blanked nothing else. */
  other: { section: DocsSection; shows: () => HTMLElement }
}

const panel = () => screen.getByRole('region', { name: 'API Docs panel' })

const CASES: ResourceCase[] = [
  {
    resource: 'schema',
    section: 'tables-and-views',
    title: 'Failed to load the REST schema',
    malformed: [
      ['a document that is not Swagger 2.0', json({ ...REST_SCHEMA, swagger: '3.0' }), /Malformed response .* at swagger/],
      ['a table without properties', json({ ...REST_SCHEMA, definitions: { recipes: { type: 'object' } } }), /Malformed response .* at definitions\.recipes\.properties/],
    ],
    loaded: () => within(panel()).getByRole('list', { name: 'Tables and views' }),
    other: { section: 'introduction', shows: () => within(panel()).getByRole('group', { name: 'anon (public)' }) },
  },
  {
    resource: 'settings',
    section: 'introduction',
    title: 'Failed to retrieve API keys',
    malformed: [['a key that is empty', json(makeApiInfo({ anon: '' })), /Malformed response .* at autoApiService\.defaultApiKey/]],
    loaded: () => within(panel()).getByRole('group', { name: 'anon (public)' }),
    other: { section: 'tables-and-views', shows: () => within(panel()).getByRole('list', { name: 'Tables and views' }) },
  },
  {
    resource: 'buckets',
    section: 'storage',
    title: 'Failed to retrieve buckets',
    malformed: [['a bucket whose public flag is a word', json([{ ...BUCKETS[0], public: 'yes' }]), /Malformed response .* at 0\.public/]],
    loaded: () => within(panel()).getByRole('list', { name: 'Buckets' }),
    other: { section: 'edge-functions', shows: () => within(panel()).getByRole('list', { name: 'Edge functions' }) },
  },
  {
    resource: 'functions',
    section: 'edge-functions',
    title: 'Failed to retrieve edge functions',
    malformed: [['a function of an unknown status', json([{ ...EDGE_FUNCTIONS[0], status: 'RUNNING' }]), /Malformed response .* at 0\.status/]],
    loaded: () => within(panel()).getByRole('list', { name: 'Edge functions' }),
    other: { section: 'storage', shows: () => within(panel()).getByRole('list', { name: 'Buckets' }) },
  },
]

function renderPanel(resource: keyof typeof PATHS, answers: Answer[], section: DocsSection) {
  const fetch = stubFetch({
    polled: PATHS[resource],
    answers,
    fallback: GOOD[resource],
    fixed: (Object.keys(PATHS) as Array<keyof typeof PATHS>).filter((r) => r !== resource).map((r) => [PATHS[r], GOOD[r]]),
  })
  const actor = createActor(liveApiDocsMachine, {
    input: { ref: REF, mode: 'page', permissions: ALL_PERMISSIONS, features: { auth: true, storage: true, edgeFunctions: true, realtime: true }, url: { ...NO_DOCS_URL, docs: section } },
  }).start()
  render(
    <section aria-label="API Docs panel">
      <ApiDocsPanel actor={actor} projectRef={REF} fallbackUrl={null} title={<h1>API Docs</h1>} />
    </section>,
  )
  return { actor, fetch }
}

const show = (section: string) => fireEvent.click(within(screen.getByRole('navigation', { name: 'API docs' })).getByRole('button', { name: section }))

describe.each(CASES)('API docs panel under bad answers: $resource', ({ resource, section, title, malformed, loaded, other }) => {
  const cases: Array<[string, Answer, RegExp]> = [...badAnswerCases(), ...malformed]

  it.each(cases)('%s shows a clear error where it shows, keeps the rest, and Try again loads it', async (_, bad, message) => {
    // The buckets are retried up to 3 times (spec 8): every try gets the bad answer.
    const { actor, fetch } = renderPanel(resource, resource === 'buckets' ? [bad, bad, bad, bad] : [bad], section)
    // Long enough for every try to time out: four reads of the project's database and the retries' 1 s, 2 s and 4 s.
    await act(() => vi.advanceTimersByTimeAsync(4 * PROJECT_DATABASE_TIMEOUT_MS + 7_000))
    expect(fetch.calls).toHaveLength(resource === 'buckets' ? 4 : 1)
    const alert = within(panel()).getByRole('alert')
    expect(alert).toHaveTextContent(title)
    expect(alert).toHaveTextContent(message)
    // The panel is there: its sections, and another resource loaded meanwhile.
    expect(within(screen.getByRole('navigation', { name: 'API docs' })).getAllByRole('button')).toHaveLength(7)
    const sectionLabel = { introduction: 'Connect', 'tables-and-views': 'Tables & Views', storage: 'Storage', 'edge-functions': 'Edge Functions' } as Record<string, string>
    show(sectionLabel[other.section])
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(other.shows()).toBeInTheDocument()
    show(sectionLabel[section])
    fireEvent.click(within(within(panel()).getByRole('alert')).getByRole('button', { name: 'Try again' }))
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(loaded()).toBeInTheDocument()
    expect(within(panel()).queryByRole('alert')).toBeNull()
    actor.stop()
  })
})
