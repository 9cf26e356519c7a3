/**
 * The API docs' snippets (types.ts): JavaScript with @supabase/supabase-js (a `supabase` client in scope, made as the
 * Connect page shows) and Bash with curl against the project URL, for each section and docs entity. Every table
 * and function snippet makes the same request in both languages (tests/server/api-docs-snippets.test.ts runs them
 * against the project's endpoint and compares the answers); names are quoted and encoded by ./quote.ts.
 */
import type { DocField, DocFunction, DocTable } from '../../../../../machines/restDocs'
import type { FunctionResponse } from '../../../../contracts/functions'
import type { Bucket } from '../../../../contracts/storage'
import { AUTH_EXAMPLES, exampleValue, filterFields, STORAGE_EXAMPLE_PATH, insertFields, keyField, rangeBounds, updateField, type Variant } from './examples'
import {
  filterKey,
  jsonInline,
  jsString,
  jsUrlName,
  jsValue,
  pathSegment,
  postgrestName,
  queryPart,
  selectSurvivesClient,
  shellQuote,
  type Json,
} from './quote'
import type { Snippet, SnippetContext } from './types'


/** The Realtime section's sentence on how long a channel outlives its client. */
export const REALTIME_CLEANUP_TEXT =
  'Channels are cleaned up 30 seconds after the client disconnects: a client that comes back later joins again with subscribe().'

// ---------------------------------------------------------------------------------------------------------------
// Building blocks

type Header = [name: string, value: string]

const base = (ctx: SnippetContext) => ctx.projectUrl.replace(/\/+$/, '')
const keyHeaders = (key: string): Header[] => [
  ['apikey', key],
  ['Authorization', `Bearer ${key}`],
]
const JSON_TYPE: Header = ['Content-Type', 'application/json']

/** A complete curl command, one option a line. */
function curl(method: string, url: string, headers: Header[], data?: { flag: '-d' | '-F'; values: string[] }): string {
  const lines = [method === 'GET' ? `curl ${shellQuote(url)}` : `curl -X ${method} ${shellQuote(url)}`]
  for (const [name, value] of headers) lines.push(`  -H ${shellQuote(`${name}: ${value}`)}`)
  for (const value of data?.values ?? []) lines.push(`  ${data!.flag} ${shellQuote(value)}`)
  return lines.join(' \\\n')
}

const jsonData = (value: Json) => ({ flag: '-d' as const, values: [jsonInline(value)] })

/** `const { data, error } = await supabase` and one call a line. */
const jsChain = (calls: string[]) => ['const { data, error } = await supabase', ...calls.map((c) => `  ${c}`)].join('\n')

/** A query string from [key, value] pairs, each part encoded. */
const query = (params: Array<[string, string]>) =>
  params.length ? `?${params.map(([k, v]) => `${queryPart(k)}=${queryPart(v)}`).join('&')}` : ''

/** The text PostgREST's filters take for a value (the query holds text; JSON values are written as JSON). */
function filterText(value: Json): string {
  if (value === null) return 'null'
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value)
}

/** An `in` list item: double-quoted where PostgREST's list syntax would cut it (as supabase-js's in() does). */
const listItem = (value: Json) => {
  const text = filterText(value)
  return /[,()]/.test(text) ? `"${text}"` : text
}

/** A row of example values for the given columns. */
const exampleRow = (fields: DocField[], variant: Variant): { [key: string]: Json } =>
  Object.fromEntries(fields.map((f) => [f.name, exampleValue(f, variant)]))

// ---------------------------------------------------------------------------------------------------------------
// Connect

export function connectSnippets(ctx: SnippetContext): Snippet[] {
  const url = base(ctx)
  const createWith = (key: string) =>
    [
      "import { createClient } from '@supabase/supabase-js'",
      '',
      `const supabaseUrl = ${jsString(url)}`,
      `const supabaseKey = ${jsString(key)}`,
      'const supabase = createClient(supabaseUrl, supabaseKey)',
    ].join('\n')
  const root = `${url}/rest/v1/`
  return [
    {
      id: 'initializing',
      title: 'Initializing',
      description:
        'Install the JavaScript client library with npm install --save @supabase/supabase-js, then create a client with ' +
        'the project URL and a key. Every JavaScript example on these pages uses this client as `supabase`.\n\n' +
        'With Bash, every example is a complete curl command against the project URL.',
      js: createWith(ctx.anonKey),
      bash: curl('GET', root, keyHeaders(ctx.anonKey)),
    },
    {
      id: 'client-api-keys',
      title: 'Client API keys',
      description:
        'The anon key gives anonymous access to the database until a user logs in; after that, requests carry the ' +
        "user's access token instead. It is safe to use in a browser as long as Row Level Security is enabled on " +
        'your tables and your policies allow only what anonymous visitors may do.\n\n' +
        'curl sends a key twice: in the apikey header, which lets the request in, and as Authorization: Bearer, ' +
        'whose role the request runs as.',
      js: createWith(ctx.anonKey),
      bash: curl('GET', root, keyHeaders(ctx.anonKey)),
    },
    {
      id: 'service-keys',
      title: 'Service keys',
      description:
        'The service_role key has full access to your data: it bypasses Row Level Security. Use it only on a ' +
        'server, never in a browser or an app on a customer\'s device, and never share it.',
      js: createWith(ctx.serviceKey),
      bash: curl('GET', root, keyHeaders(ctx.serviceKey)),
    },
  ]
}

// ---------------------------------------------------------------------------------------------------------------
// User management

export function authSnippets(ctx: SnippetContext): Snippet[] {
  const auth = `${base(ctx)}/auth/v1`
  const anon = keyHeaders(ctx.anonKey)
  const asUser: Header[] = [['apikey', ctx.anonKey], ['Authorization', `Bearer ${AUTH_EXAMPLES.userToken}`]]
  const { email, newEmail, password, phone, otp } = AUTH_EXAMPLES
  const js = (lines: string[]) => lines.join('\n')
  return [
    {
      id: 'sign-up',
      title: 'Sign up',
      description: 'Creates a user with an e-mail address and a password. With e-mail confirmations on, the user confirms by the link sent to them before logging in.',
      js: js([`const { data, error } = await supabase.auth.signUp({`, `  email: ${jsString(email)},`, `  password: ${jsString(password)},`, `})`]),
      bash: curl('POST', `${auth}/signup`, [...anon, JSON_TYPE], jsonData({ email, password })),
    },
    {
      id: 'login-with-password',
      title: 'Log in with e-mail and password',
      description: 'Answers a session: the access token to send as Authorization: Bearer, and a refresh token.',
      js: js([`const { data, error } = await supabase.auth.signInWithPassword({`, `  email: ${jsString(email)},`, `  password: ${jsString(password)},`, `})`]),
      bash: curl('POST', `${auth}/token?grant_type=password`, [...anon, JSON_TYPE], jsonData({ email, password })),
    },
    {
      id: 'login-with-magic-link',
      title: 'Log in with a magic link',
      description:
        'Sends the user an e-mail with a link that logs them in. The JavaScript client asks for it at /otp, which sends a ' +
        'magic link by default; curl uses the /magiclink endpoint.',
      js: js([`const { data, error } = await supabase.auth.signInWithOtp({`, `  email: ${jsString(email)},`, `})`]),
      bash: curl('POST', `${auth}/magiclink`, [...anon, JSON_TYPE], jsonData({ email })),
    },
    {
      id: 'login-with-phone-otp',
      title: 'Log in with a one-time password by SMS',
      description: 'Sends a six-digit code to the phone number; the user logs in by verifying it.',
      js: js([`const { data, error } = await supabase.auth.signInWithOtp({`, `  phone: ${jsString(phone)},`, `})`]),
      bash: curl('POST', `${auth}/otp`, [...anon, JSON_TYPE], jsonData({ phone })),
    },
    {
      id: 'login-with-email-otp',
      title: 'Log in with a one-time password by e-mail',
      description: 'Sends a code (or a magic link, depending on the e-mail template) to the address; the user logs in by verifying it.',
      js: js([`const { data, error } = await supabase.auth.signInWithOtp({`, `  email: ${jsString(email)},`, `})`]),
      bash: curl('POST', `${auth}/otp`, [...anon, JSON_TYPE], jsonData({ email })),
    },
    {
      id: 'verify-otp',
      title: 'Verify a one-time password',
      description: "Answers a session when the code is right. For a code sent by e-mail, give email and type 'email' instead.",
      js: js([
        `const { data, error } = await supabase.auth.verifyOtp({`,
        `  phone: ${jsString(phone)},`,
        `  token: ${jsString(otp)},`,
        `  type: 'sms',`,
        `})`,
      ]),
      bash: curl('POST', `${auth}/verify`, [...anon, JSON_TYPE], jsonData({ type: 'sms', phone, token: otp })),
    },
    {
      id: 'get-user',
      title: 'Get the user',
      description: `The logged-in user. curl sends the user's access token (from a login's answer) where ${AUTH_EXAMPLES.userToken} stands.`,
      js: 'const { data: { user } } = await supabase.auth.getUser()',
      bash: curl('GET', `${auth}/user`, asUser),
    },
    {
      id: 'update-user',
      title: 'Update the user',
      description: 'Changes the logged-in user: e-mail, phone, password or metadata (data). A new e-mail address is confirmed by a link sent to it.',
      js: js([`const { data, error } = await supabase.auth.updateUser({`, `  email: ${jsString(newEmail)},`, `})`]),
      bash: curl('PUT', `${auth}/user`, [...asUser, JSON_TYPE], jsonData({ email: newEmail })),
    },
    {
      id: 'recover-password',
      title: 'Send a password reset e-mail',
      description: 'Sends a link that logs the user in so that they can set a new password with updateUser.',
      js: `const { data, error } = await supabase.auth.resetPasswordForEmail(${jsString(email)})`,
      bash: curl('POST', `${auth}/recover`, [...anon, JSON_TYPE], jsonData({ email })),
    },
    {
      id: 'logout',
      title: 'Log out',
      description: "Ends the user's sessions (scope global: on every device) and revokes their refresh tokens.",
      js: 'const { error } = await supabase.auth.signOut()',
      bash: curl('POST', `${auth}/logout?scope=global`, [...asUser, JSON_TYPE]),
    },
    {
      id: 'invite-user',
      title: 'Invite a user',
      description:
        'Sends an invitation e-mail to a new user. Needs the service_role key: the JavaScript client here is one made ' +
        'with it, on a server, never in a browser.',
      js: `const { data, error } = await supabase.auth.admin.inviteUserByEmail(${jsString(email)})`,
      bash: curl('POST', `${auth}/invite`, [...keyHeaders(ctx.serviceKey), JSON_TYPE], jsonData({ email })),
    },
  ]
}

// ---------------------------------------------------------------------------------------------------------------
// Tables and views

interface Filter {
  /** supabase-js call, e.g. `.eq('title', 'x')`. */
  js: string
  /** [key, value] of the query string. */
  query: [string, string]
}

const eqFilter = (field: DocField, value: Json): Filter => ({
  js: `.eq(${jsString(filterKey(field.name))}, ${jsValue(value)})`,
  query: [filterKey(field.name), `eq.${filterText(value)}`],
})

function subscribeSnippet(table: DocTable, id: string, title: string, event: string, channel: string): Snippet {
  return {
    id,
    title,
    description: `Realtime sends the changes of ${table.name} that the key's role may read, as they happen. Realtime has no curl form.`,
    js: [
      'const channel = supabase',
      `  .channel(${jsString(channel)})`,
      '  .on(',
      "    'postgres_changes',",
      `    { event: ${jsString(event)}, schema: 'public', table: ${jsString(table.name)} },`,
      "    (payload) => console.log('Change received!', payload),",
      '  )',
      '  .subscribe()',
    ].join('\n'),
    bash: null,
  }
}

export function tableSnippets(table: DocTable, ctx: SnippetContext): Snippet[] {
  const url = `${base(ctx)}/rest/v1/${pathSegment(table.name)}`
  const from = `.from(${jsString(jsUrlName(table.name))})`
  const keys = keyHeaders(ctx.anonKey)
  const fields = table.fields
  const out: Snippet[] = []

  const read = (id: string, title: string, description: string, jsCalls: string[], params: Array<[string, string]>, headers: Header[] = []) =>
    out.push({ id, title, description, js: jsChain([from, ...jsCalls]), bash: curl('GET', `${url}${query(params)}`, [...keys, ...headers]) })

  read('read-all-rows', 'Read all rows', `Every row of ${table.name} that the key's role may read.`, [".select('*')"], [['select', '*']])

  const columns = fields.slice(0, 2).filter((f) => selectSurvivesClient(postgrestName(f.name)))
  if (columns.length > 0) {
    const select = columns.map((f) => postgrestName(f.name)).join(',')
    read(
      'read-specific-columns',
      'Read specific columns',
      'select takes a comma-separated list of columns; a name with spaces, commas or quotes goes in double quotes.',
      [`.select(${jsString(select)})`],
      [['select', select]],
    )
  }

  const picked = filterFields(fields)
  const filter = (id: string, title: string, description: string, filters: Filter[]) =>
    read(id, title, description, [".select('*')", ...filters.map((f) => f.js)], [['select', '*'], ...filters.map((f) => f.query)])
  if (picked.equal) {
    filter('filter-equal', 'Filter: equal to', `The rows whose ${picked.equal.name} equals a value (neq for not equal).`, [
      eqFilter(picked.equal, exampleValue(picked.equal)),
    ])
  }
  if (picked.range) {
    const [low, high] = rangeBounds(picked.range)
    const key = filterKey(picked.range.name)
    filter('filter-range', 'Filter: greater and less than', `The rows whose ${picked.range.name} lies between two values (gt and lt leave the bounds out).`, [
      { js: `.gte(${jsString(key)}, ${jsValue(low)})`, query: [key, `gte.${filterText(low)}`] },
      { js: `.lte(${jsString(key)}, ${jsValue(high)})`, query: [key, `lte.${filterText(high)}`] },
    ])
  }
  if (picked.pattern) {
    const key = filterKey(picked.pattern.name)
    filter('filter-pattern', 'Filter: matching a pattern', `The rows whose ${picked.pattern.name} contains a word, ignoring case (like for case-sensitive). In a URL, * stands for %.`, [
      { js: `.ilike(${jsString(key)}, '%example%')`, query: [key, 'ilike.*example*'] },
    ])
  }
  if (picked.list) {
    const key = filterKey(picked.list.name)
    const values = [exampleValue(picked.list, 1), exampleValue(picked.list, 2)]
    filter('filter-in', 'Filter: in a list', `The rows whose ${picked.list.name} is one of the values.`, [
      { js: `.in(${jsString(key)}, ${jsValue(values)})`, query: [key, `in.(${values.map(listItem).join(',')})`] },
    ])
  }
  if (picked.nullable) {
    const key = filterKey(picked.nullable.name)
    filter('filter-null', 'Filter: is null', `The rows whose ${picked.nullable.name} is empty (not.is.null for the others).`, [
      { js: `.is(${jsString(key)}, null)`, query: [key, 'is.null'] },
    ])
  }

  read(
    'paginate',
    'Paginate',
    'The first ten rows: range(0, 9) in JavaScript, the Range header 0-9 with curl. Add an order for pages that stay the same between reads.',
    [".select('*')", '.range(0, 9)'],
    [['select', '*']],
    [['Range', '0-9']],
  )

  const isTable = table.kind === 'table'
  const write = (id: string, title: string, description: string, method: string, jsCalls: string[], params: Array<[string, string]>, headers: Header[], body?: Json) =>
    out.push({
      id,
      title,
      description,
      js: jsChain([from, ...jsCalls]),
      bash: curl(method, `${url}${query(params)}`, [...keys, ...headers], body === undefined ? undefined : jsonData(body)),
    })
  const representation: Header[] = [JSON_TYPE, ['Prefer', 'return=representation']]

  if (isTable || table.insertable) {
    const inserted = insertFields(fields)
    const one = exampleRow(inserted, 1)
    const many = [exampleRow(inserted, 1), exampleRow(inserted, 2)]
    write('insert-a-row', 'Insert a row', 'select() after insert answers the new row (Prefer: return=representation with curl).', 'POST', [`.insert(${jsValue(one)})`, '.select()'], [], representation, one)
    write('insert-many-rows', 'Insert many rows', 'An array inserts several rows in one request.', 'POST', [`.insert(${jsValue(many)})`, '.select()'], [], representation, many)
  }

  const key = keyField(fields)
  if (key && (isTable || table.updatable)) {
    const set = updateField(fields, key)
    if (set) {
      const changes = { [set.name]: exampleValue(set, 1) }
      const match = eqFilter(key, exampleValue(key, 1))
      write(
        'update-matching-rows',
        'Update matching rows',
        'update() changes every row the filters match: always give one.',
        'PATCH',
        [`.update(${jsValue(changes)})`, match.js, '.select()'],
        [match.query],
        representation,
        changes,
      )
    }
  }
  if (key && (isTable || table.deletable)) {
    const match = eqFilter(key, exampleValue(key, 1))
    write('delete-matching-rows', 'Delete matching rows', 'delete() removes every row the filters match: always give one.', 'DELETE', ['.delete()', match.js], [match.query], [])
  }

  if (isTable || table.updatable) {
    out.push(
      subscribeSnippet(table, 'subscribe-to-inserts', 'Subscribe to inserts', 'INSERT', 'custom-insert-channel'),
      subscribeSnippet(table, 'subscribe-to-updates', 'Subscribe to updates', 'UPDATE', 'custom-update-channel'),
      subscribeSnippet(table, 'subscribe-to-deletes', 'Subscribe to deletes', 'DELETE', 'custom-delete-channel'),
      subscribeSnippet(table, 'subscribe-to-all-changes', 'Subscribe to all changes', '*', 'custom-all-channel'),
    )
  }
  return out
}

// ---------------------------------------------------------------------------------------------------------------
// Stored procedures

export function functionSnippets(fn: DocFunction, ctx: SnippetContext): Snippet[] {
  const required = fn.parameters.filter((p) => p.required)
  const optional = fn.parameters.filter((p) => !p.required)
  const args: { [key: string]: Json } = Object.fromEntries(required.map((p) => [p.name, exampleValue(p)]))
  const jsArgs = required.length ? `, ${jsValue(args)}` : ''
  const paragraphs = [
    fn.summary,
    'Functions are called with POST and their arguments by name in a JSON object.',
    optional.length ? `Optional arguments, left out here: ${optional.map((p) => `${p.name} (${p.format || p.type || 'any'})`).join(', ')}.` : null,
  ].filter((p): p is string => Boolean(p))
  return [
    {
      id: 'invoke',
      title: 'Invoke the function',
      description: paragraphs.join('\n\n'),
      js: `const { data, error } = await supabase.rpc(${jsString(jsUrlName(fn.name))}${jsArgs})`,
      bash: curl('POST', `${base(ctx)}/rest/v1/rpc/${pathSegment(fn.name)}`, [...keyHeaders(ctx.anonKey), JSON_TYPE], jsonData(args)),
    },
  ]
}

// ---------------------------------------------------------------------------------------------------------------
// Storage

/** A bucket name that supabase-js's getPublicUrl() cannot carry: it runs encodeURI, which leaves `?` and `#` as they are. */
const breaksPublicUrl = (name: string) => /[?#]/.test(name)

export function bucketSnippets(bucket: Bucket, ctx: SnippetContext): Snippet[] {
  const storage = `${base(ctx)}/storage/v1`
  const name = bucket.name
  const segment = pathSegment(name)
  const file = STORAGE_EXAMPLE_PATH
  const filePath = file.split('/').map(pathSegment).join('/')
  const keys = keyHeaders(ctx.anonKey)
  const from = `const { data, error } = await supabase.storage\n  .from(${jsString(jsUrlName(name))})`
  const out: Snippet[] = [
    {
      id: 'upload-a-file',
      title: 'Upload a file',
      description: `Uploads a file from a file input to ${file}, cached for 3600 seconds; upsert false refuses to replace an existing file.`,
      js: ['const avatarFile = event.target.files[0]', from, `  .upload(${jsString(file)}, avatarFile, {`, "    cacheControl: '3600',", '    upsert: false,', '  })'].join('\n'),
      bash: curl('POST', `${storage}/object/${segment}/${filePath}`, [...keys, ['x-upsert', 'false']], {
        flag: '-F',
        values: ['cacheControl=3600', `=@${file.split('/').pop()}`],
      }),
    },
    {
      id: 'download-a-file',
      title: 'Download a file',
      description: 'Answers the file as a Blob (curl writes it to the file given with -o).',
      js: `${from}\n  .download(${jsString(file)})`,
      bash: `${curl('GET', `${storage}/object/${segment}/${filePath}`, keys)} \\\n  -o ${shellQuote(file.split('/').pop()!)}`,
    },
    {
      id: 'list-files',
      title: 'List files',
      description: 'The files and folders in a folder, 100 at a time from offset 0, sorted by name.',
      js: [from, `  .list('folder', {`, '    limit: 100,', '    offset: 0,', "    sortBy: { column: 'name', order: 'asc' },", '  })'].join('\n'),
      bash: curl('POST', `${storage}/object/list/${segment}`, [...keys, JSON_TYPE], jsonData({ prefix: 'folder', limit: 100, offset: 0, sortBy: { column: 'name', order: 'asc' } })),
    },
  ]
  if (!bucket.public) {
    out.push({
      id: 'create-a-signed-url',
      title: 'Create a signed URL',
      description: 'A URL that gives access to the file for 60 seconds, without a key.',
      js: `${from}\n  .createSignedUrl(${jsString(file)}, 60)`,
      bash: curl('POST', `${storage}/object/sign/${segment}/${filePath}`, [...keys, JSON_TYPE], jsonData({ expiresIn: 60 })),
    })
  } else {
    const publicUrl = `${storage}/object/public/${segment}/${filePath}`
    out.push({
      id: 'retrieve-public-url',
      title: 'Retrieve the public URL',
      description: 'The files of a public bucket are served at a URL anyone may read; getPublicUrl() builds it without a request.',
      js: breaksPublicUrl(name)
        ? [
            "// getPublicUrl() leaves the '?' or '#' of this bucket's name unencoded: the URL, encoded",
            `const publicUrl = ${jsString(publicUrl)}`,
          ].join('\n')
        : `const { data } = supabase.storage\n  .from(${jsString(name)})\n  .getPublicUrl(${jsString(file)})`,
      bash: curl('GET', publicUrl, []),
    })
  }
  out.push({
    id: 'delete-files',
    title: 'Delete files',
    description: 'Removes the files at the given paths.',
    js: `${from}\n  .remove([${jsString(file)}])`,
    bash: curl('DELETE', `${storage}/object/${segment}`, [...keys, JSON_TYPE], jsonData({ prefixes: [file] })),
  })
  return out
}

// ---------------------------------------------------------------------------------------------------------------
// Edge functions

export function edgeFunctionSnippets(fn: FunctionResponse, ctx: SnippetContext): Snippet[] {
  const body = { name: 'Functions' }
  return [
    {
      id: 'invoke-edge-function',
      title: 'Invoke the function',
      description: `Calls ${fn.name} with a JSON body; the key goes in the Authorization header${fn.verify_jwt === false ? ' (this function does not verify it)' : ''}.`,
      js: [`const { data, error } = await supabase.functions.invoke(${jsString(fn.slug)}, {`, `  body: ${jsValue(body)},`, '})'].join('\n'),
      bash: curl('POST', `${base(ctx)}/functions/v1/${pathSegment(fn.slug)}`, [...keyHeaders(ctx.anonKey), JSON_TYPE], jsonData(body)),
    },
  ]
}

// ---------------------------------------------------------------------------------------------------------------
// Realtime

export function realtimeSnippets(_ctx: SnippetContext): Snippet[] {
  return [
    {
      id: 'subscribe-to-database-changes',
      title: 'Subscribe to database changes',
      description:
        "A channel delivers the inserts, updates and deletes of the public schema's tables that the key's role may read, " +
        'for the tables in the realtime publication. Give table (and a filter such as id=eq.1) to narrow it. Realtime ' +
        'works over a WebSocket: it has no curl form.',
      js: [
        'const channel = supabase',
        "  .channel('schema-db-changes')",
        '  .on(',
        "    'postgres_changes',",
        "    { event: '*', schema: 'public' },",
        "    (payload) => console.log('Change received!', payload),",
        '  )',
        '  .subscribe()',
      ].join('\n'),
      bash: null,
    },
    {
      id: 'unsubscribe',
      title: 'Unsubscribe',
      description: `removeChannel() leaves a channel at once. ${REALTIME_CLEANUP_TEXT}`,
      js: 'await supabase.removeChannel(channel)',
      bash: null,
    },
  ]
}
