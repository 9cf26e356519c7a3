/**
 * The HTTP client reads a response's body as it arrives (src/api/http.ts): chunk by chunk, decoded as a stream. These
 * checks give it bodies cut where a browser's network may cut them — inside a character, one byte at a time — and a
 * body that breaks off after the headers, through the real client and the REST schema's contract.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { getProjectRestSchema } from '../../src/api/calls/rest'
import { REST_SCHEMA } from '../fixtures.apiDocs'

const encoder = new TextEncoder()

/** A response whose body is `chunks`, then (when `breakOff`) a failure of the connection instead of its end. */
function streamed(chunks: Uint8Array[], breakOff = false): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk)
      if (breakOff) controller.error(new TypeError('network error'))
      else controller.close()
    },
  })
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } })
}

/** `bytes` cut into pieces of `size`. */
const pieces = (bytes: Uint8Array, size: number) => Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.slice(i * size, (i + 1) * size))

const SCHEMA = {
  ...REST_SCHEMA,
  definitions: {
    ...REST_SCHEMA.definitions,
    'crème brûlée 🍮': { type: 'object', description: 'Desserts — «sucrés»', properties: { 'note 📝': { type: 'string', format: 'text', description: 'Ünïcödé' } } },
  },
}

function answer(response: () => Response) {
  vi.stubGlobal('fetch', (input: Request) => (input.signal.aborted ? Promise.reject(new DOMException('aborted', 'AbortError')) : Promise.resolve(response())))
}

afterEach(() => vi.unstubAllGlobals())

describe('a response body read as it arrives', () => {
  it.each([
    ['one byte at a time (every multi-byte character split)', 1],
    ['in pieces of 7 bytes', 7],
    ['in one piece', Number.MAX_SAFE_INTEGER],
  ])('%s: the document is whole and its characters intact', async (_, size) => {
    const bytes = encoder.encode(JSON.stringify(SCHEMA))
    answer(() => streamed(pieces(bytes, size)))
    const schema = await getProjectRestSchema('abcdefghijklmnopqrst')
    expect(schema.definitions['crème brûlée 🍮']).toEqual(SCHEMA.definitions['crème brûlée 🍮'])
    expect(schema).toEqual(SCHEMA)
  })

  it('a body that breaks off after the headers is "Unable to reach the server", not a raw error', async () => {
    const bytes = encoder.encode(JSON.stringify(SCHEMA))
    answer(() => streamed([bytes.slice(0, 100)], true))
    await expect(getProjectRestSchema('abcdefghijklmnopqrst')).rejects.toMatchObject({ name: 'ApiError', message: 'Unable to reach the server', kind: 'network' })
  })

  it('an empty body is refused by the contract as it was before (no document)', async () => {
    answer(() => streamed([]))
    await expect(getProjectRestSchema('abcdefghijklmnopqrst')).rejects.toMatchObject({ name: 'ApiError', kind: 'malformed' })
  })

  it('a call cancelled while its body arrives answers nothing (its caller has gone)', async () => {
    const controller = new AbortController()
    const bytes = encoder.encode(JSON.stringify(SCHEMA))
    let push: ((chunk: Uint8Array | null) => void) | undefined
    const body = new ReadableStream<Uint8Array>({
      start(stream) {
        push = (chunk) => (chunk === null ? stream.error(new DOMException('aborted', 'AbortError')) : stream.enqueue(chunk))
      },
    })
    answer(() => new Response(body, { status: 200 }))
    let settled = false
    void getProjectRestSchema('abcdefghijklmnopqrst', { signal: controller.signal }).then(
      () => (settled = true),
      () => (settled = true),
    )
    await vi.waitFor(() => expect(push).toBeDefined())
    push!(bytes.slice(0, 50))
    controller.abort()
    push!(null)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(settled).toBe(false)
  })
})
