/**
 * The quoting and encoding rules of the API docs' snippets, one function per context a name or value lands in:
 *  - JavaScript source: string literals (jsString), object keys (jsKey), any JSON value (jsValue);
 *  - a name supabase-js puts into a URL unencoded (from(), rpc(), storage.from()): jsUrlName;
 *  - a URL path segment of a curl command: pathSegment; a query key or value: queryPart;
 *  - a JSON body inside a shell command: jsonInline, then shellQuote;
 *  - a column name inside PostgREST's select / order syntax: postgrestName; as a filter's query key: filterKey.
 * Pure functions; tests/web/apiDocsSnippets.test.ts states each rule.
 */

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json }

const hex4 = (code: number) => code.toString(16).padStart(4, '0')

/**
 * A single-quoted JavaScript string literal: backslash and quote escaped, line terminators and other control
 * characters, U+2028/U+2029 and lone surrogates as escapes; everything else (unicode included) as it is.
 */
export function jsString(value: string): string {
  let out = "'"
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]
    const code = value.charCodeAt(i)
    if (ch === "'") out += "\\'"
    else if (ch === '\\') out += '\\\\'
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029) out += `\\u${hex4(code)}`
    else if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += ch + value[i + 1]
        i++
      } else out += `\\u${hex4(code)}`
    } else if (code >= 0xdc00 && code <= 0xdfff) out += `\\u${hex4(code)}`
    else out += ch
  }
  return `${out}'`
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/**
 * An object literal's key: bare when it is an identifier, else a string literal. `__proto__` is computed
 * (`['__proto__']`): written bare or quoted it would set the object's prototype instead of a property.
 */
export function jsKey(name: string): string {
  if (name === '__proto__') return `[${jsString(name)}]`
  return IDENTIFIER.test(name) ? name : jsString(name)
}

/** A JSON value as JavaScript source, on one line: `{ title: 'Soup', tags: ['a'] }`. */
export function jsValue(value: Json): string {
  if (value === null) return 'null'
  if (typeof value === 'string') return jsString(value)
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return `[${value.map(jsValue).join(', ')}]`
  const entries = Object.entries(value)
  if (entries.length === 0) return '{}'
  return `{ ${entries.map(([k, v]) => `${jsKey(k)}: ${jsValue(v)}`).join(', ')} }`
}

/** A JSON value as JSON text on one line, spaced for reading: `{ "title": "Soup", "tags": ["a"] }`. */
export function jsonInline(value: Json): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(jsonInline).join(', ')}]`
  const entries = Object.entries(value)
  if (entries.length === 0) return '{}'
  return `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${jsonInline(v)}`).join(', ')} }`
}

/** One shell word: single-quoted, a single quote written as `'\''`. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`
}

/** A URL path segment: percent-encoded UTF-8 (also `'`, so that the URL sits in single quotes as it is). */
export function pathSegment(name: string): string {
  return encodeURIComponent(name).replace(/'/g, '%27')
}

/**
 * A query key or value: percent-encoded like a path segment, except `,` and `:` (the separators of PostgREST's
 * select and in-lists), which a query may hold as they are and which decode the same either way.
 */
export function queryPart(value: string): string {
  return pathSegment(value).replace(/%2C/g, ',').replace(/%3A/g, ':')
}

/**
 * A name that supabase-js appends to its URL without encoding (`from(table)`, `rpc(fn)`, `storage.from(bucket)`),
 * prepared so that the URL it builds reaches the server with the name intact. The URL parser encodes spaces,
 * quotes and unicode itself, but reads `?` and `#` as the query and fragment, `\` and `/` as separators, keeps
 * `%` as the start of an escape, drops tabs and line breaks and trims the ends: those characters are
 * percent-encoded here. (A relation named `.` or `..` cannot be reached: the parser resolves it away, encoded too.)
 */
export function jsUrlName(name: string): string {
  let out = ''
  for (let i = 0; i < name.length; i++) {
    const ch = name[i]
    const code = name.charCodeAt(i)
    const atEnd = i === 0 || i === name.length - 1
    if ('%?#\\/'.includes(ch) || code < 0x20 || code === 0x7f || (atEnd && ch === ' ')) out += encodeURIComponent(ch)
    else out += ch
  }
  return out
}

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * A column name in PostgREST's select or order syntax: as it is when it is a plain identifier, else in double
 * quotes with `"` and `\` backslash-escaped (a name may then hold commas, colons, dots, parentheses, spaces …).
 */
export function postgrestName(name: string): string {
  if (PLAIN_NAME.test(name)) return name
  return `"${name.replace(/[\\"]/g, '\\$&')}"`
}

/** Query parameters PostgREST reads as something other than a filter. */
const RESERVED_KEYS = new Set(['select', 'order', 'limit', 'offset', 'columns', 'on_conflict', 'or', 'and', 'not.or', 'not.and'])

/**
 * A column name as a filter's query key (`?<key>=eq.1`). The key is the name itself, unless PostgREST would read
 * it as something else — a reserved parameter, a quoted name, a JSON path (`->`), an embedding hint (`!`), a
 * spread (`...`) or a logic tree on an embedded resource (`x.or`) — then it is double-quoted as in postgrestName.
 */
export function filterKey(name: string): string {
  const ambiguous =
    RESERVED_KEYS.has(name) ||
    name.startsWith('"') ||
    name.includes('->') ||
    name.includes('!') ||
    name.startsWith('...') ||
    /\.(or|and)$/.test(name) ||
    name.trim() !== name ||
    name === ''
  return ambiguous ? `"${name.replace(/[\\"]/g, '\\$&')}"` : name
}

/**
 * Whether supabase-js's select() keeps a select list as written: it drops whitespace outside double quotes and
 * takes every `"` as opening or closing a quote (it does not know `\"`), so a quoted name whose escaped quotes
 * put a space "outside" loses that space. The docs then leave such a column out of the JavaScript select.
 */
export function selectSurvivesClient(select: string): boolean {
  let quoted = false
  for (const ch of select) {
    if (/\s/.test(ch) && !quoted) return false
    if (ch === '"') quoted = !quoted
  }
  return true
}
