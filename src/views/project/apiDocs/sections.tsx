/**
 * The content of each section of the API docs panel, rendered from the machine's state: the first-level pages
 * (Connect, User Management, the lists of tables and views, stored procedures, buckets and edge functions, Realtime)
 * and the entity page of one item. The docs come derived from the schema by the machine; the lists (ItemList.tsx)
 * render plain rows (no actor per row), virtualised when long, and skip re-rendering while their data is the same, so
 * 1,000 tables stay cheap.
 */
import { useSelector } from '@xstate/react'
import { memo, useMemo, type ReactNode } from 'react'
import {
  SECTION_LABELS,
  selectBuckets,
  selectEdgeFunctions,
  selectKeyCopier,
  selectKeyNotice,
  selectProjectKeys,
  selectRestDocs,
  shallowEqual,
  type DocsLanguage,
  type DocsSection,
  type ResourceView,
} from '../../../../machines/apiDocs.machine'
import { PERMISSION_TEXT } from '../../../../machines/keyAccess'
import type { DocFunction, DocTable } from '../../../../machines/restDocs'
import type { FunctionResponse } from '../../../contracts/functions'
import type { Bucket } from '../../../contracts/storage'
import { Button, ErrorPanel, Loading, cx } from '../../shell/ui'
import { CopyButton } from '../../shell/CopyButton'
import { authSnippets, bucketSnippets, connectSnippets, edgeFunctionSnippets, functionSnippets, realtimeSnippets, REALTIME_CLEANUP_TEXT, tableSnippets } from './snippets'
import type { Snippet, SnippetContext } from './snippets/types'
import { Badge, ItemList, NO_DESCRIPTION, type ListRow } from './ItemList'
import { SnippetAnchors, SnippetList } from './SnippetList'
import type { ApiDocsActorRef } from './useApiDocsActor'

interface SectionProps {
  actor: ApiDocsActorRef
  ctx: SnippetContext
  language: DocsLanguage
  item: string | null
  keysShown: boolean
  /** The keys toggle and the language selector: in the sticky header of an entity page. */
  controls: ReactNode
  /** What the host puts on the Connect page above the snippets (the app: 'Generate types'). */
  connectExtra?: ReactNode
}

export function SectionContent({ section, ...props }: SectionProps & { section: DocsSection }) {
  switch (section) {
    case 'introduction':
      return <ConnectSection {...props} />
    case 'user-management':
      return <SnippetsSection title="User Management" intro="Sign users up and in, manage the signed-in user and invite others." snippets={authSnippets(props.ctx)} {...props} />
    case 'tables-and-views':
      return <TablesSection {...props} />
    case 'stored-procedures':
      return <ProceduresSection {...props} />
    case 'storage':
      return <StorageSection {...props} />
    case 'edge-functions':
      return <EdgeFunctionsSection {...props} />
    case 'realtime':
      return <SnippetsSection title="Realtime" intro={REALTIME_CLEANUP_TEXT} snippets={realtimeSnippets(props.ctx)} {...props} />
  }
}

function SectionHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="mb-6">
      <h2 className="text-xl font-semibold text-neutral-900 dark:text-neutral-50">{title}</h2>
      {children ? <div className="mt-2 space-y-2 text-sm text-neutral-600 dark:text-neutral-300">{children}</div> : null}
    </header>
  )
}

/** A resource's loading and failure treatment; `children` renders it once loaded. */
function Resource<T>({ resource, what, failedTitle, onRetry, children }: { resource: ResourceView<T>; what: string; failedTitle: string; onRetry: () => void; children: (value: T) => ReactNode }) {
  if (resource.phase === 'loaded') return <>{children(resource.value)}</>
  if (resource.phase === 'failed') return <ErrorPanel title={failedTitle} message={resource.error} onRetry={onRetry} />
  if (resource.phase === 'notPermitted') return <p className="text-sm text-neutral-500">You need additional permissions to see {what}.</p>
  return <Loading label={resource.retry > 0 ? `Loading ${what}… (retry ${resource.retry} of 3)` : `Loading ${what}…`} />
}

// ---------------------------------------------------------------------------------------------------------------
// Connect

const MASK = '•'.repeat(32)

function ConnectSection({ actor, ctx, language, keysShown, connectExtra }: SectionProps) {
  const keys = useSelector(actor, selectProjectKeys, shallowEqual)
  // Spec 6, as settings/api: without service_api_keys:read, or while the JWT secret is not updated, a key's place
  // says why and offers no copy.
  const notice = useSelector(actor, selectKeyNotice)
  const snippets = useMemo(() => connectSnippets(ctx), [ctx])
  return (
    <>
      <SectionHeading title="Connect to your project">
        <p>Every project has a RESTful endpoint over its database, with its tables, views and functions, and the keys that open it.</p>
      </SectionHeading>
      <Resource resource={keys} what="API keys" failedTitle="Failed to retrieve API keys" onRetry={() => actor.send({ type: 'settings.retry' })}>
        {(value) => (
          <div className="mb-8 divide-y divide-neutral-200 rounded-lg border border-neutral-200 dark:divide-neutral-800 dark:border-neutral-800">
            <KeyRow label="Project URL" value={value.projectUrl === null ? 'Not available yet' : ctx.projectUrl} />
            <KeyRow
              label="anon (public)"
              value={value.anon === null ? 'Not available yet' : (notice ?? (keysShown ? value.anon : MASK))}
              copy={value.anon === null || notice !== null ? null : { actor, which: 'anon' }}
            />
            <KeyRow
              label="service_role (secret)"
              value={value.serviceRole === null ? PERMISSION_TEXT : (notice ?? (keysShown ? value.serviceRole : MASK))}
              copy={value.serviceRole === null || notice !== null ? null : { actor, which: 'service_role' }}
            />
          </div>
        )}
      </Resource>
      {connectExtra}
      <SnippetList snippets={snippets} language={language} actor={actor} />
    </>
  )
}

function KeyRow({ label, value, copy }: { label: string; value: string; copy?: { actor: ApiDocsActorRef; which: 'anon' | 'service_role' } | null }) {
  return (
    <div role="group" aria-label={label} className="grid grid-cols-[10rem_1fr_auto] items-center gap-3 px-4 py-3 text-sm">
      <dl className="contents">
        <dt className="text-neutral-500 dark:text-neutral-400">{label}</dt>
        <dd className="min-w-0 break-all font-mono text-xs">{value}</dd>
      </dl>
      <div>{copy ? <KeyCopyButton {...copy} /> : null}</div>
    </div>
  )
}

function KeyCopyButton({ actor, which }: { actor: ApiDocsActorRef; which: 'anon' | 'service_role' }) {
  const copier = useSelector(actor, selectKeyCopier(which))
  const enabled = useSelector(actor, (snapshot) => snapshot.can({ type: 'key.copy', key: which }))
  return <CopyButton copier={copier} enabled={enabled} onCopy={() => actor.send({ type: 'key.copy', key: which })} />
}

// ---------------------------------------------------------------------------------------------------------------
// Sections of snippets only

function SnippetsSection({ title, intro, snippets, actor, language }: SectionProps & { title: string; intro: string; snippets: Snippet[] }) {
  return (
    <>
      <SectionHeading title={title}>
        <p>{intro}</p>
      </SectionHeading>
      <SnippetList snippets={snippets} language={language} actor={actor} />
    </>
  )
}

// ---------------------------------------------------------------------------------------------------------------
// Lists and entity pages

/** The entity page: back, the dropdown of the section's items, the sticky controls, the anchors and the content. */
function EntityPage({
  section,
  items,
  item,
  actor,
  controls,
  snippets,
  language,
  children,
}: {
  section: DocsSection
  items: string[]
  item: string
  actor: ApiDocsActorRef
  controls: ReactNode
  snippets: Snippet[]
  language: DocsLanguage
  children?: ReactNode
}) {
  const sectionLabel = SECTION_LABELS[section]
  const show = (next: string | null) => actor.send({ type: 'docs.show', section, item: next })
  return (
    <div>
      <div className="sticky top-0 z-10 -mx-6 mb-6 flex flex-wrap items-center gap-3 border-b border-neutral-200 bg-white/95 px-6 py-3 backdrop-blur dark:border-neutral-800 dark:bg-neutral-900/95">
        <Button variant="ghost" onClick={() => show(null)} aria-label={`Back to ${sectionLabel}`}>
          ← Back
        </Button>
        <select
          aria-label={sectionLabel}
          value={item}
          onChange={(event) => show(event.target.value)}
          className="max-w-xs rounded-md border border-neutral-300 bg-white px-2 py-1.5 font-mono text-sm dark:border-neutral-700 dark:bg-neutral-950"
        >
          {items.includes(item) ? null : <option value={item}>{item}</option>}
          {items.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <div className="ml-auto flex items-center gap-2">{controls}</div>
      </div>
      <div className="grid gap-8 lg:grid-cols-[1fr_12rem]">
        <div className="min-w-0">
          {items.includes(item) ? (
            <>
              {children}
              <SnippetList snippets={snippets} language={language} actor={actor} />
            </>
          ) : (
            <p role="alert" className="text-sm text-neutral-600 dark:text-neutral-300">
              There is no {item} in {sectionLabel}: it may have been renamed or removed.
            </p>
          )}
        </div>
        {items.includes(item) && snippets.length > 0 ? (
          <div className="hidden lg:block">
            <div className="sticky top-20">
              <SnippetAnchors snippets={snippets} />
            </div>
          </div>
        ) : null}
      </div>
      {/* Small screens: the anchors above would be hidden; keep them reachable below. */}
      {items.includes(item) && snippets.length > 0 ? (
        <div className="mt-8 lg:hidden">
          <SnippetAnchors snippets={snippets} />
        </div>
      ) : null}
    </div>
  )
}

function FieldTable({ label, columns, rows }: { label: string; columns: string[]; rows: string[][] }) {
  return (
    <div className="mb-8 overflow-x-auto rounded-lg border border-neutral-200 dark:border-neutral-800">
      <table aria-label={label} className="min-w-full text-sm">
        <thead className="bg-neutral-50 text-left text-xs text-neutral-500 dark:bg-neutral-900 dark:text-neutral-400">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className="px-4 py-2 font-medium">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-neutral-100 dark:divide-neutral-800">
          {rows.map((row) => (
            <tr key={row[0]}>
              {row.map((cell, index) =>
                index === 0 ? (
                  <th key={index} scope="row" className="px-4 py-2 text-left font-mono font-medium">
                    {cell}
                  </th>
                ) : (
                  <td key={index} className={cx('px-4 py-2', index < columns.length - 1 && 'font-mono text-xs')}>
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

// Tables & Views

const tableRows = (tables: DocTable[]): ListRow[] => tables.map((t) => ({ name: t.name, badge: t.kind === 'view' ? 'View' : undefined, text: t.description }))

function TablesSection({ actor, ctx, language, item, controls }: SectionProps) {
  const docs = useSelector(actor, selectRestDocs, shallowEqual)
  return (
    <Resource resource={docs} what="tables and views" failedTitle="Failed to load the REST schema" onRetry={() => actor.send({ type: 'schema.retry' })}>
      {(value) =>
        item === null ? (
          <>
            <SectionHeading title="Tables & Views">
              <p>All the tables and views of schema public that the API offers. Choose one for its columns and the calls that read and write it.</p>
            </SectionHeading>
            <TablesList tables={value.tables} actor={actor} />
          </>
        ) : (
          <TableEntity tables={value.tables} item={item} actor={actor} ctx={ctx} language={language} controls={controls} />
        )
      }
    </Resource>
  )
}

const TablesList = memo(function TablesList({ tables, actor }: { tables: DocTable[]; actor: ApiDocsActorRef }) {
  const rows = useMemo(() => tableRows(tables), [tables])
  return <ItemList label="Tables and views" rows={rows} empty="No tables or views in schema public yet." onOpen={(name) => actor.send({ type: 'docs.show', section: 'tables-and-views', item: name })} />
})

function TableEntity({ tables, item, actor, ctx, language, controls }: { tables: DocTable[]; item: string } & Omit<SectionProps, 'item' | 'keysShown'>) {
  const table = tables.find((t) => t.name === item)
  const names = useMemo(() => tables.map((t) => t.name), [tables])
  const snippets = useMemo(() => (table ? tableSnippets(table, ctx) : []), [table, ctx])
  return (
    <EntityPage section="tables-and-views" items={names} item={item} actor={actor} controls={controls} snippets={snippets} language={language}>
      {table ? (
        <>
          <div className="mb-4 flex items-center gap-3">
            <h2 className="font-mono text-xl font-semibold">{table.name}</h2>
            {table.kind === 'view' ? <Badge>View</Badge> : null}
          </div>
          <p className="mb-6 text-sm text-neutral-600 dark:text-neutral-300">{table.description ?? NO_DESCRIPTION}</p>
          <FieldTable
            label={`Columns of ${table.name}`}
            columns={['Name', 'Format', 'Type', 'Description']}
            rows={table.fields.map((f) => [f.name, f.format, f.type, f.description ?? NO_DESCRIPTION])}
          />
        </>
      ) : null}
    </EntityPage>
  )
}

// Stored procedures

const functionRows = (functions: DocFunction[]): ListRow[] => functions.map((f) => ({ name: f.name, text: f.summary }))

function ProceduresSection({ actor, ctx, language, item, controls }: SectionProps) {
  const docs = useSelector(actor, selectRestDocs, shallowEqual)
  return (
    <Resource resource={docs} what="stored procedures" failedTitle="Failed to load the REST schema" onRetry={() => actor.send({ type: 'schema.retry' })}>
      {(value) =>
        item === null ? (
          <>
            <SectionHeading title="Stored Procedures">
              <p>The functions of schema public, called through the API as remote procedures (rpc).</p>
            </SectionHeading>
            <ProceduresList functions={value.functions} actor={actor} />
          </>
        ) : (
          <ProcedureEntity functions={value.functions} item={item} actor={actor} ctx={ctx} language={language} controls={controls} />
        )
      }
    </Resource>
  )
}

const ProceduresList = memo(function ProceduresList({ functions, actor }: { functions: DocFunction[]; actor: ApiDocsActorRef }) {
  const rows = useMemo(() => functionRows(functions), [functions])
  return <ItemList label="Stored procedures" rows={rows} empty="No functions in schema public yet." onOpen={(name) => actor.send({ type: 'docs.show', section: 'stored-procedures', item: name })} />
})

function ProcedureEntity({ functions, item, actor, ctx, language, controls }: { functions: DocFunction[]; item: string } & Omit<SectionProps, 'item' | 'keysShown'>) {
  const fn = functions.find((f) => f.name === item)
  const names = useMemo(() => functions.map((f) => f.name), [functions])
  const snippets = useMemo(() => (fn ? functionSnippets(fn, ctx) : []), [fn, ctx])
  return (
    <EntityPage section="stored-procedures" items={names} item={item} actor={actor} controls={controls} snippets={snippets} language={language}>
      {fn ? (
        <>
          <h2 className="mb-4 font-mono text-xl font-semibold">{fn.name}</h2>
          <p className="mb-6 text-sm text-neutral-600 dark:text-neutral-300">{fn.summary ?? NO_DESCRIPTION}</p>
          {fn.parameters.length === 0 ? (
            <p className="mb-8 text-sm text-neutral-500">This function takes no arguments.</p>
          ) : (
            <FieldTable
              label={`Parameters of ${fn.name}`}
              columns={['Name', 'Format', 'Type', 'Required']}
              rows={fn.parameters.map((p) => [p.name, p.format, p.type, p.required ? 'Required' : 'Optional'])}
            />
          )}
        </>
      ) : null}
    </EntityPage>
  )
}

// Storage

const bucketRows = (buckets: Bucket[]): ListRow[] => buckets.map((b) => ({ name: b.name, badge: b.public ? 'Public' : 'Private', text: mimeText(b) }))

function mimeText(bucket: Bucket) {
  const types = bucket.allowed_mime_types === null ? 'Any file type' : bucket.allowed_mime_types.length === 0 ? 'No file types allowed' : bucket.allowed_mime_types.join(', ')
  const size = bucket.file_size_limit === null ? 'no size limit' : `up to ${bucket.file_size_limit.toLocaleString('en-US')} bytes`
  return `${types}, ${size}`
}

function StorageSection({ actor, ctx, language, item, controls }: SectionProps) {
  const buckets = useSelector(actor, selectBuckets, shallowEqual)
  return (
    <Resource resource={buckets} what="buckets" failedTitle="Failed to retrieve buckets" onRetry={() => actor.send({ type: 'buckets.retry' })}>
      {(value) =>
        item === null ? (
          <>
            <SectionHeading title="Storage">
              <p>The project's buckets. Files of a public bucket can be read by anyone with their URL; a private bucket's need a key or a signed URL.</p>
            </SectionHeading>
            <BucketsList buckets={value} actor={actor} />
          </>
        ) : (
          <BucketEntity buckets={value} item={item} actor={actor} ctx={ctx} language={language} controls={controls} />
        )
      }
    </Resource>
  )
}

const BucketsList = memo(function BucketsList({ buckets, actor }: { buckets: Bucket[]; actor: ApiDocsActorRef }) {
  const rows = useMemo(() => bucketRows(buckets), [buckets])
  return <ItemList label="Buckets" rows={rows} empty="No buckets yet. Create one on the Storage page." onOpen={(name) => actor.send({ type: 'docs.show', section: 'storage', item: name })} />
})

function BucketEntity({ buckets, item, actor, ctx, language, controls }: { buckets: Bucket[]; item: string } & Omit<SectionProps, 'item' | 'keysShown'>) {
  const bucket = buckets.find((b) => b.name === item)
  const names = useMemo(() => buckets.map((b) => b.name), [buckets])
  // The snippet builders leave out 'create signed URL' for a public bucket and 'retrieve public URL' for a private one.
  const snippets = useMemo(() => (bucket ? bucketSnippets(bucket, ctx) : []), [bucket, ctx])
  return (
    <EntityPage section="storage" items={names} item={item} actor={actor} controls={controls} snippets={snippets} language={language}>
      {bucket ? (
        <>
          <div className="mb-4 flex items-center gap-3">
            <h2 className="font-mono text-xl font-semibold">{bucket.name}</h2>
            <Badge>{bucket.public ? 'Public' : 'Private'}</Badge>
          </div>
          <p className="mb-6 text-sm text-neutral-600 dark:text-neutral-300">{mimeText(bucket)}.</p>
        </>
      ) : null}
    </EntityPage>
  )
}

// Edge functions

const edgeFunctionRows = (functions: FunctionResponse[]): ListRow[] => functions.map((f) => ({ name: f.slug, badge: f.status === 'ACTIVE' ? undefined : f.status, text: `${f.name === f.slug ? '' : `${f.name} · `}version ${f.version}` }))

function EdgeFunctionsSection({ actor, ctx, language, item, controls }: SectionProps) {
  const functions = useSelector(actor, selectEdgeFunctions, shallowEqual)
  return (
    <Resource resource={functions} what="edge functions" failedTitle="Failed to retrieve edge functions" onRetry={() => actor.send({ type: 'functions.retry' })}>
      {(value) =>
        item === null ? (
          <>
            <SectionHeading title="Edge Functions">
              <p>The project's edge functions, invoked over HTTP with a key.</p>
            </SectionHeading>
            <EdgeFunctionsList functions={value} actor={actor} />
          </>
        ) : (
          <EdgeFunctionEntity functions={value} item={item} actor={actor} ctx={ctx} language={language} controls={controls} />
        )
      }
    </Resource>
  )
}

const EdgeFunctionsList = memo(function EdgeFunctionsList({ functions, actor }: { functions: FunctionResponse[]; actor: ApiDocsActorRef }) {
  const rows = useMemo(() => edgeFunctionRows(functions), [functions])
  return <ItemList label="Edge functions" rows={rows} empty="No edge functions yet." onOpen={(name) => actor.send({ type: 'docs.show', section: 'edge-functions', item: name })} />
})

function EdgeFunctionEntity({ functions, item, actor, ctx, language, controls }: { functions: FunctionResponse[]; item: string } & Omit<SectionProps, 'item' | 'keysShown'>) {
  const fn = functions.find((f) => f.slug === item)
  const names = useMemo(() => functions.map((f) => f.slug), [functions])
  const snippets = useMemo(() => (fn ? edgeFunctionSnippets(fn, ctx) : []), [fn, ctx])
  return (
    <EntityPage section="edge-functions" items={names} item={item} actor={actor} controls={controls} snippets={snippets} language={language}>
      {fn ? <h2 className="mb-6 font-mono text-xl font-semibold">{fn.slug}</h2> : null}
    </EntityPage>
  )
}
