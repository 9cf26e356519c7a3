/**
 * The auth service's e-mail through a real SMTP server (SMTP_URL): an in-process server of the `smtp-server` package
 * receives the messages, so the whole delivery runs — connection, AUTH with the URL's user and password, envelope,
 * body. A sign-up's confirmation arrives there with its link on the project URL and nothing lands in the local
 * mailbox; a server that refuses, rejects the password, never answers or is down fails the request with the
 * platform's 500 and writes nothing; the URL's password appears in no answer and no log line.
 */
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { loadConfig, smtpDisplay } from '../../src/server/config'
import { followLink, startAuthServer, type AuthTestServer } from './project-auth-support'

const USER = 'mailer'
const PASSWORD = 'p@ss:w0rd/S3cret'
const FROM = 'Recipe Box <auth@recipes.example>'
/** Short, so the silent server's case ends quickly; far below the project database's transaction time-out. */
const TIMEOUT_MS = 1_500

interface Received {
  from: string
  to: string[]
  text: string
}

/** What the test server does with the next connection. */
type Mode = 'accept' | 'refuse-recipient' | 'refuse-login' | 'silent'

let mode: Mode = 'accept'
let received: Received[] = []
const logins: { user: string; pass: string }[] = []

/** Quoted-printable as nodemailer writes a text body: soft line breaks, then =XX bytes. */
const unQuote = (qp: string) =>
  Buffer.from(qp.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8')

function bodyOf(raw: string): string {
  const split = raw.indexOf('\r\n\r\n')
  const head = raw.slice(0, split)
  const body = raw.slice(split + 4)
  return /content-transfer-encoding:\s*quoted-printable/i.test(head) ? unQuote(body) : body
}

function smtpServer() {
  return new SMTPServer({
    // Plain text on loopback: no certificate to trust, so AUTH is allowed without TLS.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onConnect(_session, callback) {
      // A server that accepts the connection and never greets.
      if (mode !== 'silent') callback()
    },
    onAuth(auth, _session, callback) {
      logins.push({ user: auth.username ?? '', pass: auth.password ?? '' })
      if (mode === 'refuse-login' || auth.username !== USER || auth.password !== PASSWORD) {
        callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }))
        return
      }
      callback(null, { user: auth.username })
    },
    onRcptTo(_address, _session, callback) {
      if (mode === 'refuse-recipient') callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }))
      else callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          text: bodyOf(Buffer.concat(chunks).toString('utf8')),
        })
        callback()
      })
    },
  })
}

let smtp: SMTPServer
let port = 0
let env: AuthTestServer
const logged: string[] = []

const listen = (server: SMTPServer, at: number) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject)
    server.listen(at, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port))
  })

beforeAll(async () => {
  smtp = smtpServer()
  port = await listen(smtp, 0)
  const url = `smtp://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`
  const config = loadConfig({ SMTP_URL: url, SMTP_FROM: FROM, SMTP_TIMEOUT_MS: String(TIMEOUT_MS) })
  env = await startAuthServer('Recipe Box', { smtp: config.smtp })
  // Confirmation e-mails on; the failures below spend e-mails of the hourly budget too.
  await env.settings({ mailer_autoconfirm: false, rate_limit_email_sent: 1_000 })
}, 120_000)

afterAll(async () => {
  await env?.close()
  await new Promise<void>((resolve) => smtp.close(() => resolve()))
})

afterEach(() => {
  vi.restoreAllMocks()
  mode = 'accept'
  received = []
})

/** Everything the server writes to its log while `fn` runs. */
async function capturingLogs<T>(fn: () => Promise<T>): Promise<T> {
  const keep = (...args: unknown[]) => void logged.push(args.map(String).join(' '))
  vi.spyOn(console, 'error').mockImplementation(keep)
  vi.spyOn(console, 'warn').mockImplementation(keep)
  vi.spyOn(console, 'log').mockImplementation(keep)
  vi.spyOn(console, 'info').mockImplementation(keep)
  return fn()
}

const signUp = (email: string) =>
  fetch(`${env.url}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: env.keys.anon, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'a long enough password' }),
  })

async function usersNamed(email: string) {
  const { data, error } = await env.client(env.keys.service).auth.admin.listUsers({ page: 1, perPage: 1000 })
  expect(error).toBeNull()
  return data.users.filter((u) => u.email === email)
}

/** The request failed as the platform fails it, wrote nothing, and leaked no credential. */
async function expectNotSent(res: Response, email: string, message = 'Error sending confirmation email') {
  const text = await res.text()
  expect(res.status).toBe(500)
  expect(JSON.parse(text)).toEqual({ code: 500, error_code: 'unexpected_failure', msg: message })
  expect(await usersNamed(email)).toEqual([])
  expect(await env.mailbox()).toEqual([])
  for (const secret of [PASSWORD, encodeURIComponent(PASSWORD), USER]) expect(text).not.toContain(secret)
}

describe('auth e-mail through SMTP_URL', () => {
  it("a sign-up's confirmation arrives at the SMTP server, its link on the project URL; the local mailbox stays empty", async () => {
    const email = 'smtp.new.user@example.com'
    const res = await signUp(email)
    expect(res.status).toBe(200)
    expect(received).toHaveLength(1)
    const [mail] = received
    expect(mail.from).toBe('auth@recipes.example')
    expect(mail.to).toEqual([email])
    expect(logins.at(-1)).toEqual({ user: USER, pass: PASSWORD })
    const link = /(\S+\/auth\/v1\/verify\?\S+)/.exec(mail.text)?.[1]
    expect(link?.startsWith(`${env.url}/auth/v1/verify?token=`)).toBe(true)
    expect(mail.text).toMatch(/enter the code: \d{6}/)
    expect(await env.mailbox()).toEqual([])

    // The delivered link confirms the address and signs the user in.
    const { params } = await followLink(link!)
    expect(params.get('type')).toBe('signup')
    const { data } = await env.client().auth.getUser(params.get('access_token')!)
    expect(data.user?.email).toBe(email)
    expect(data.user?.email_confirmed_at).toBeTruthy()
  })

  it('a magic link and a recovery go the same way, each with its own link', async () => {
    const email = 'smtp.new.user@example.com'
    const anon = env.client()
    expect((await anon.auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error).toBeNull()
    expect((await anon.auth.resetPasswordForEmail(email)).error).toBeNull()
    expect(received.map((m) => m.to)).toEqual([[email], [email]])
    expect(received[0].text).toContain('Follow this link to login:')
    expect(received[1].text).toContain('Follow this link to reset the password for your user:')
    expect(await env.mailbox()).toEqual([])
  })

  it('a server that refuses the recipient: 500 "Error sending confirmation email", no user, no password anywhere', async () => {
    mode = 'refuse-recipient'
    const email = 'smtp.refused@example.com'
    const before = logged.length
    await capturingLogs(async () => expectNotSent(await signUp(email), email))
    const lines = logged.slice(before)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(`not sent through SMTP smtp://127.0.0.1:${port}: EENVELOPE 550`)
  })

  it('a server that refuses the login: the same answer, and the log names the failure without the credentials', async () => {
    mode = 'refuse-login'
    const email = 'smtp.badlogin@example.com'
    const before = logged.length
    await capturingLogs(async () => expectNotSent(await signUp(email), email))
    expect(logins.at(-1)).toEqual({ user: USER, pass: PASSWORD })
    expect(logged.slice(before).join('\n')).toContain('EAUTH 535')
  })

  it('a magic link the server does not take answers its own message and leaves the user without a new token', async () => {
    mode = 'refuse-recipient'
    const email = 'smtp.new.user@example.com'
    const [before] = await usersNamed(email)
    expect(before.recovery_sent_at).toBeTruthy()
    const res = await capturingLogs(() =>
      fetch(`${env.url}/auth/v1/otp`, {
        method: 'POST',
        headers: { apikey: env.keys.anon, 'content-type': 'application/json' },
        body: JSON.stringify({ email, create_user: false }),
      }),
    )
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({ code: 500, error_code: 'unexpected_failure', msg: 'Error sending magic link email' })
    const [after] = await usersNamed(email)
    expect(after.recovery_sent_at).toBe(before.recovery_sent_at)
  })

  it('a server that never greets: the delivery gives up after SMTP_TIMEOUT_MS with the same answer', async () => {
    mode = 'silent'
    const email = 'smtp.silent@example.com'
    const started = Date.now()
    await capturingLogs(async () => {
      const res = await signUp(email)
      // Bounded by the setting (not the mail client's default of minutes), with room for a loaded machine.
      expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50)
      await expectNotSent(res, email)
    })
  })

  it('a server that is down: the same answer; the log names the server, never its user or password', async () => {
    const before = logged.length
    await new Promise<void>((resolve) => smtp.close(() => resolve()))
    // Nothing listens on the port now: the connection is refused.
    const probe = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1')
      socket.once('connect', () => (socket.destroy(), resolve('open')))
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'))
    })
    expect(probe).toBe('ECONNREFUSED')
    const email = 'smtp.down@example.com'
    try {
      await capturingLogs(async () => expectNotSent(await signUp(email), email))
    } finally {
      smtp = smtpServer()
      await listen(smtp, port)
    }
    const lines = logged.slice(before).join('\n')
    expect(lines).toContain(`smtp://127.0.0.1:${port}`)
    expect(lines).toMatch(/ECONNECTION|ESOCKET/)
    for (const line of logged) {
      expect(line).not.toContain(PASSWORD)
      expect(line).not.toContain(encodeURIComponent(PASSWORD))
      expect(line).not.toContain(`${USER}:`)
    }
  })
})

describe('SMTP_URL and its companions in the server config', () => {
  it('takes the URL apart: host, port, TLS, user and password percent-decoded; sender and time-out', () => {
    expect(loadConfig({}).smtp).toBeUndefined()
    expect(loadConfig({ SMTP_URL: `smtps://${USER}:${encodeURIComponent(PASSWORD)}@mail.example.com:2465`, SMTP_FROM: FROM }).smtp).toEqual({
      host: 'mail.example.com',
      port: 2465,
      secure: true,
      auth: { user: USER, pass: PASSWORD },
      from: FROM,
      timeoutMs: 10_000,
    })
    expect(loadConfig({ SMTP_URL: 'smtp://[::1]' }).smtp).toEqual({ host: '::1', secure: false, from: 'noreply@localhost', timeoutMs: 10_000 })
  })

  it('refuses what is not an SMTP server URL, without quoting it (it carries the password)', () => {
    for (const bad of [
      `http://${USER}:${PASSWORD}@mail.example.com`,
      `smtp//${USER}:${PASSWORD}@mail.example.com`,
      `smtp://${USER}:${PASSWORD}@`,
      `smtp://${USER}:${PASSWORD}@mail.example.com:25?sendmail=true`,
      `smtp://${USER}:${PASSWORD}@mail.example.com/path`,
      `smtp://${USER}:%E0%A4%A@mail.example.com`,
    ]) {
      let message = ''
      try {
        loadConfig({ SMTP_URL: bad })
      } catch (err) {
        message = (err as Error).message
      }
      expect(message, bad).toMatch(/^SMTP_URL /)
      expect(message).not.toContain(PASSWORD)
      expect(message).not.toContain('%E0')
    }
  })

  it('keeps a delivery shorter than the transaction it runs in', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.com', SMTP_TIMEOUT_MS: '15000' })).toThrow(/SMTP_TIMEOUT_MS must be shorter than PROJECT_DB_QUERY_TIMEOUT_MS \(15000\)/)
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.com', SMTP_TIMEOUT_MS: '0' })).toThrow(/SMTP_TIMEOUT_MS/)
    expect(loadConfig({ SMTP_URL: 'smtp://mail.example.com', PROJECT_DB_QUERY_TIMEOUT_MS: '4000' }).smtp?.timeoutMs).toBe(3_999)
  })

  it('shows where e-mail goes without the user or password', () => {
    const smtp = loadConfig({ SMTP_URL: `smtp://${USER}:${encodeURIComponent(PASSWORD)}@mail.example.com:587` }).smtp
    expect(smtpDisplay(smtp)).toBe('SMTP smtp://mail.example.com:587')
    expect(smtpDisplay(undefined)).toBe("each project's local mailbox (no SMTP_URL)")
  })
})
