import { expect, type APIRequestContext, type Locator, type Page, type Request } from '@playwright/test'
import { ProjectList, type Project } from '../../src/contracts/projects'
import { expectAccessible } from './axe'

export const DEMO_PASSWORD = 'demo1234'

/**
 * The screens a worker's sign-ins have scanned, by person: nearly every walk signs in, and scanning the same sign-in
 * form and the same person's project list again in each (about 100 scans of half a second to a second in a run)
 * found nothing the first scan does not. The first sign-in of each person in each worker scans both;
 * tests/e2e/a11y-screens.spec.ts scans the project list with all its cards.
 */
const scannedAtSignIn = new Set<string>()

export async function signIn(page: Page, email = 'owner@example.com') {
  const firstTime = !scannedAtSignIn.has(email)
  scannedAtSignIn.add(email)
  await page.goto('/sign-in')
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back' })).toBeVisible()
  if (firstTime) await expectAccessible(page, 'sign-in', page.getByRole('heading', { level: 1, name: 'Welcome back' }))
  await page.getByLabel(/e-?mail/i).fill(email)
  await page.getByLabel(/password/i).fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: /sign in/i }).click()
  // The bound the accounts walk allows too: a server at the default hash cost takes seconds on a loaded machine.
  await expect(page).toHaveURL(/\/projects$/, { timeout: 20_000 })
  await expect(page.getByRole('searchbox', { name: 'Search for a project' })).toBeVisible()
  if (firstTime) await expectAccessible(page, 'projects list', page.getByRole('searchbox', { name: 'Search for a project' }))
}

/** Development control: a new project in the given status (the server schedules its lifecycle). */
export async function createProject(request: APIRequestContext, body: { organization_slug: string; name?: string; status?: string; postgrestStatus?: string }) {
  const response = await request.post('/dev/projects', { data: body })
  expect(response.status(), await response.text()).toBeLessThan(300)
  return (await response.json()) as Project
}

/**
 * When the page sent each request whose path matches, in order: `length` counts them at once (a request the page
 * aborts counts too), and each entry is the browser's own start time of the request once it was answered — the test
 * runner's clock at the 'request' event runs late while the runner is busy (an axe scan), which would shrink or
 * stretch the gaps a fixed beat is checked by — or the runner's time for a request never answered.
 */
export function requestStarts(page: Page, path: RegExp): readonly number[] {
  const seen: Array<{ request: Request; at: number }> = []
  page.on('request', (request) => {
    if (path.test(new URL(request.url()).pathname)) seen.push({ request, at: Date.now() })
  })
  return new Proxy(seen, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) {
        const entry = target[Number(key)]
        return entry && (entry.request.timing().startTime || entry.at)
      }
      return Reflect.get(target, key, receiver)
    },
  }) as unknown as readonly number[]
}

/**
 * The page on a clock the walk drives, for the walks that check a polling beat: Playwright's clock replaces the page's
 * timers and Date, and `startBeats` pauses it, so a beat fires only when the walk moves the clock on (`advance`) and
 * at its exact time, whatever the machine's load. Each request the page starts is logged with the page's clock at
 * its start and whether it has been answered and read. Call before the page's first navigation.
 */
export async function installClock(page: Page) {
  // Before the clock replaces them: the accessibility scan runs on these (axe.ts), as it waits on timers of its own.
  await page.addInitScript(() => {
    ;(window as unknown as { __realTimers: unknown }).__realTimers = { setTimeout: window.setTimeout.bind(window), clearTimeout: window.clearTimeout.bind(window) }
  })
  await page.clock.install()
  await page.addInitScript(() => {
    type Entry = { path: string; at: number; settled: boolean }
    const log: Entry[] = []
    ;(window as unknown as { __requestLog: Entry[] }).__requestLog = log
    const original = window.fetch
    window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
      const url = input instanceof Request ? input.url : String(input)
      const entry: Entry = { path: new URL(url, location.href).pathname, at: Date.now(), settled: false }
      log.push(entry)
      const answer = original.call(this, input, init)
      // Settled once a copy of the body has been read: the page's own reading of the same bytes is done by then, and
      // what it does with them runs before the walk's next look at the page (a task of its own).
      answer
        .then((response) => response.clone().arrayBuffer())
        .catch(() => undefined)
        .finally(() => {
          entry.settled = true
        })
      return answer
    }
  })
}

/** The page's clock now (ms). */
export const clockNow = (page: Page) => page.evaluate(() => Date.now())

/** Stops the page's clock where it is: from now on only `advance` moves it. */
export async function startBeats(page: Page) {
  // The clock runs until it pauses: aim a little ahead of it (the time between reading it and pausing it is the
  // runner's, seconds on a loaded machine), and further ahead if it got there first.
  for (let ahead = 500; ; ahead *= 2) {
    try {
      await page.clock.pauseAt((await clockNow(page)) + ahead)
      break
    } catch (error) {
      if (!/to the past/.test(String(error)) || ahead > 60_000) throw error
    }
  }
  await settle(page)
  return clockNow(page)
}

/** Waits until every request the page has started is answered and read (or failed), in real time. */
export async function settle(page: Page) {
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __requestLog: Array<{ settled: boolean }> }).__requestLog.every((entry) => entry.settled)), {
      timeout: 20_000,
    })
    .toBe(true)
}

/**
 * Moves the paused clock on by `ms`, firing each timer at its exact time, in steps of at most `step` ms with the
 * requests settled after each, so a request a beat sends is answered before its time-out (1 s under every slot) can
 * abandon it.
 */
export async function advance(page: Page, ms: number, step = 500) {
  for (let done = 0; done < ms; done += step) {
    await page.clock.runFor(Math.min(step, ms - done))
    await settle(page)
  }
}

/**
 * Moves the paused clock on, 50 ms at a time, until `target` shows: a screen whose code is still loading shows behind
 * React's Suspense, which reveals it on a timer. Each step gives the page a moment of real time to render.
 */
export async function advanceUntilVisible(page: Page, target: Locator, limit = 10_000) {
  for (let moved = 0; moved <= limit; moved += 50) {
    if (await target.waitFor({ state: 'visible', timeout: 100 }).then(() => true, () => false)) return
    await page.clock.runFor(50)
    await settle(page)
  }
  await expect(target).toBeVisible()
}

/** The page's clock time of each request it started whose path matches, in order. */
export async function clockedRequests(page: Page, path: RegExp): Promise<number[]> {
  return page.evaluate(
    ({ source, flags }) => {
      const pattern = new RegExp(source, flags)
      return (window as unknown as { __requestLog: Array<{ path: string; at: number }> }).__requestLog.filter((entry) => pattern.test(entry.path)).map((entry) => entry.at)
    },
    { source: path.source, flags: path.flags },
  )
}

/** Development control: the project's next timed transition made due now, resolved once the server has recorded it. */
export async function advanceServer(request: APIRequestContext, ref: string) {
  const response = await request.post(`/dev/projects/${ref}/advance`)
  expect(response.status(), await response.text()).toBe(200)
  return (await response.json()) as { kind: string; outcome: string | null; cancelled: boolean }
}

/** The project named `name` among the signed-in person's projects (the list the dashboard reads). */
export async function projectNamed(page: Page, name: string): Promise<Project> {
  const res = await page.request.get('/platform/projects')
  const project = ProjectList.parse(await res.json()).find((p) => p.name === name)
  expect(project, name).toBeTruthy()
  return project!
}

export const refOf = async (page: Page, name: string) => (await projectNamed(page, name)).ref
