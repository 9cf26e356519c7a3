/**
 * The Authentication → Users page's reads with 10,000 users, on a real server process (PGlite store): the calls the
 * page makes (`GET /platform/auth/{ref}/users?page&per_page=50&keywords`, which the platform forwards to the project's
 * `GET /auth/v1/admin/users`), closed loop with BENCH_CLIENTS clients (default 4) for LOAD_SECONDS each (default 5):
 *  - the first page (newest first), what the page shows on opening;
 *  - the last page (offset 9,950), the deepest a member can page to;
 *  - a search that finds one user (an e-mail's distinctive part);
 *  - a search that matches every user (the domain), so the count covers all 10,000.
 * The users are written in batches of 1,000 through the Management API's SQL endpoint (no password: a hash each would
 * make the set-up minutes long and is not what is read). `npx tsx bench/auth-users.bench.ts`
 */
import { demoProjectKeys, formatFigures, loadFigures, loadLine, removeDir, startServer } from './support'

const USERS = 10_000
const PER_PAGE = 50
const BATCH = 1_000
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4)
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 5)

const server = await startServer()
try {
  const { ref, cookie } = await demoProjectKeys(server.url)
  // In batches: one statement for all 10,000 can pass the endpoint's time-out on a busy machine.
  for (let from = 1; from <= USERS; from += BATCH) {
    const to = Math.min(USERS, from + BATCH - 1)
    const made = await fetch(`${server.url}/v1/projects/${ref}/database/query`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({
        query: `
          with made as (
            insert into auth.users (instance_id, id, aud, role, email, email_confirmed_at, raw_app_meta_data, raw_user_meta_data,
                                    created_at, updated_at, last_sign_in_at, is_sso_user, is_anonymous)
            select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
                   'user-' || lpad(g::text, 5, '0') || '@example.com', now(), '{"provider": "email", "providers": ["email"]}', '{}',
                   now() - g * interval '1 minute', now(), now() - g * interval '1 second', false, false
              from generate_series(${from}, ${to}) g
            returning id, email, created_at)
          insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
          select id::text, id, jsonb_build_object('sub', id::text, 'email', email), 'email', created_at, created_at from made;`,
      }),
    })
    if (!made.ok) throw new Error(`the SQL endpoint answered ${made.status}: ${await made.text()}`)
  }

  const users = (query: string) => `${server.url}/platform/auth/${ref}/users?${query}`
  const first = await fetch(users(`page=1&per_page=${PER_PAGE}`), { headers: { cookie } })
  const firstBody = (await first.json()) as { users: unknown[]; total: number }
  if (!first.ok || firstBody.users.length !== PER_PAGE || firstBody.total < USERS) {
    throw new Error(`the first page answered ${first.status} with ${firstBody.users?.length} users of ${firstBody.total}`)
  }
  const lastPage = Math.ceil(firstBody.total / PER_PAGE)
  const cases: [string, string][] = [
    ['first page', `page=1&per_page=${PER_PAGE}`],
    [`last page (${lastPage})`, `page=${lastPage}&per_page=${PER_PAGE}`],
    ['search finding one user', `page=1&per_page=${PER_PAGE}&keywords=user-04242`],
    [`search matching all ${USERS}`, `page=1&per_page=${PER_PAGE}&keywords=example.com`],
  ]
  // A short pass of each first, so the first case measured does not pay alone for the warm-up (compiled code, the
  // project database's caches).
  for (const [, query] of cases) await loadFigures({ url: users(query), connections: 1, duration: 1, timeout: 20, headers: { cookie } })
  console.log(`${firstBody.total} users; GET /platform/auth/{ref}/users, ${CLIENTS} clients, ${LOAD_SECONDS} s each:`)
  for (const [label, query] of cases) {
    const figures = await loadFigures({ url: users(query), connections: CLIENTS, duration: LOAD_SECONDS, timeout: 20, headers: { cookie } })
    console.log(`  ${label}: ${formatFigures(figures)}`)
  }
  console.log(loadLine())
} finally {
  await server.stop()
  removeDir(server.dataDir)
}
