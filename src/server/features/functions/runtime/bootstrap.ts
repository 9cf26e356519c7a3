/**
 * The module each function's Deno process starts with (written next to the function's files, so reading it needs no
 * permission beyond the bundle's). It takes the handler the function gives `Deno.serve` (or its default export's
 * `fetch`) instead of letting it listen, then serves that handler on a loopback port of its own choosing and prints
 * the port behind a one-time marker; only requests carrying the worker's token (from the supervisor) are answered.
 * Kept as a string: it is Deno code, not part of the Node server's program.
 */
export const BOOTSTRAP_FILE = '.kp-bootstrap.js'
/** The header the bootstrap puts on each answer with the process's memory (`rss,heapUsed,external`, bytes). */
export const MEMORY_HEADER = 'x-kp-memory'

export const BOOTSTRAP_SOURCE = `// Started by the platform's function supervisor; not part of the function.
const [token, entry, marker] = Deno.args
const realServe = Deno.serve.bind(Deno)
let handler
const never = new Promise(() => {})
Deno.serve = (a, b) => {
  const h = typeof a === 'function' ? a : typeof b === 'function' ? b : a && typeof a.handler === 'function' ? a.handler : undefined
  if (typeof h !== 'function') throw new TypeError('Deno.serve needs a handler function')
  handler = h
  return {
    finished: never,
    addr: { transport: 'tcp', hostname: '0.0.0.0', port: 8000 },
    ref() {},
    unref() {},
    shutdown: async () => {},
    [Symbol.asyncDispose]: async () => {},
  }
}
// The process's memory as the answer leaves, for the call's log entry (the supervisor takes the header off). An
// answer whose headers cannot change (one from fetch) is copied; a WebSocket upgrade (101) is left as it is.
const withMemory = (res) => {
  if (!(res instanceof Response) || res.status === 101) return res
  const { rss, heapUsed, external } = Deno.memoryUsage()
  const value = rss + ',' + heapUsed + ',' + external
  try {
    res.headers.set('${MEMORY_HEADER}', value)
    return res
  } catch {
    const copy = new Response(res.body, res)
    copy.headers.set('${MEMORY_HEADER}', value)
    return copy
  }
}
const mod = await import(entry)
if (!handler && mod.default && typeof mod.default.fetch === 'function') handler = (req, info) => mod.default.fetch(req, info)
if (!handler) {
  console.error('The function never called Deno.serve(handler) and has no default export with fetch')
  Deno.exit(70)
}
realServe(
  {
    hostname: '127.0.0.1',
    port: 0,
    onListen: ({ port }) => console.log(marker + port),
    onError: (err) => {
      console.error(err)
      return new Response(JSON.stringify({ code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' }), {
        status: 500,
        headers: { 'content-type': 'application/json' },
      })
    },
  },
  (req, info) => {
    if (req.headers.get('x-kp-worker-token') !== token) return new Response('not the supervisor', { status: 403 })
    const headers = new Headers(req.headers)
    headers.delete('x-kp-worker-token')
    const url = headers.get('x-kp-url') ?? req.url
    headers.delete('x-kp-url')
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : req.body
    return Promise.resolve(handler(new Request(url, { method: req.method, headers, body, signal: req.signal, duplex: 'half' }), info)).then(withMemory)
  },
)
`
