/**
 * The API docs panel's layout, the same in the dialog and on the /project/{ref}/api page: a header (title, and on
 * first-level pages the keys toggle and the language selector), a left nav of the sections the machine offers with
 * the GraphQL and documentation links, and the content of the current section or item.
 */
import { useSelector } from '@xstate/react'
import { useMemo, useState, type ReactNode } from 'react'
import { Link } from 'wouter'
import { selectApiDocsPlace, selectSnippetKeys, shallowEqual, type DocsLanguage } from '../../../../machines/apiDocs.machine'
import { Button, cx } from '../../shell/ui'
import { CLIENT_LIBRARIES } from '../lifecycle/clientLibraries'
import { DocsScrollRoot } from './ItemList'
import { SectionContent } from './sections'
import { KEY_PLACEHOLDERS, type SnippetContext } from './snippets/types'
import { LANGUAGE_LABELS } from './SnippetList'
import type { ApiDocsActorRef } from './useApiDocsActor'
import { href } from '../../../href'

/** The platform's public documentation, on the host the client library links already point at. */
const DOCS_ORIGIN = new URL(CLIENT_LIBRARIES[0].docsUrl).origin
const GUIDES = [
  { label: 'GraphQL guide', href: `${DOCS_ORIGIN}/docs/guides/graphql` },
  { label: 'Documentation', href: `${DOCS_ORIGIN}/docs` },
  { label: 'REST guide', href: `${DOCS_ORIGIN}/docs/guides/api` },
]

/** Where the snippets point while the settings have not given the project URL. */
const URL_PLACEHOLDER = 'SUPABASE_URL'

export function ApiDocsPanel({
  actor,
  projectRef,
  fallbackUrl,
  title,
  close,
  connectExtra,
}: {
  actor: ApiDocsActorRef
  projectRef: string
  /** The project URL from the project itself, until (or unless) the settings give it. */
  fallbackUrl: string | null
  /** The panel's title element (the dialog's title or the page's heading). */
  title: ReactNode
  /** The dialog's close button. */
  close?: ReactNode
  /** Shown on the Connect page above the snippets (the app's hosts: 'Generate types'). */
  connectExtra?: ReactNode
}) {
  const place = useSelector(actor, selectApiDocsPlace, shallowEqual)
  const keys = useSelector(actor, selectSnippetKeys, shallowEqual)
  const ctx = useMemo<SnippetContext>(
    () => ({
      projectUrl: keys.projectUrl ?? fallbackUrl ?? URL_PLACEHOLDER,
      anonKey: keys.anonKey ?? KEY_PLACEHOLDERS.anonKey,
      serviceKey: keys.serviceKey ?? KEY_PLACEHOLDERS.serviceKey,
    }),
    [keys.projectUrl, keys.anonKey, keys.serviceKey, fallbackUrl],
  )
  const [scrollRoot, setScrollRoot] = useState<HTMLDivElement | null>(null)
  const controls = <DocsControls actor={actor} language={place.language} keysShown={place.keysShown} />

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex flex-wrap items-center gap-3 border-b border-neutral-200 px-5 py-3 dark:border-neutral-800">
        {title}
        <div className="ml-auto flex items-center gap-2">
          {place.item === null ? controls : null}
          {close}
        </div>
      </div>
      <div className="flex min-h-0 flex-1">
        <nav aria-label="API docs" className="w-56 shrink-0 overflow-y-auto border-r border-neutral-200 p-3 text-sm dark:border-neutral-800">
          <ul className="space-y-0.5">
            {place.sections.map((section) => {
              const current = place.section === section.id
              return (
                <li key={section.id}>
                  <button
                    type="button"
                    aria-current={current ? 'page' : undefined}
                    onClick={() => actor.send({ type: 'docs.show', section: section.id, item: null })}
                    className={cx(
                      'w-full rounded-md px-3 py-1.5 text-left',
                      current ? 'bg-neutral-100 font-medium text-neutral-900 dark:bg-neutral-800 dark:text-white' : 'text-neutral-600 hover:bg-neutral-50 dark:text-neutral-300 dark:hover:bg-neutral-800/60',
                    )}
                  >
                    {section.label}
                  </button>
                </li>
              )
            })}
          </ul>
          <p className="mt-5 mb-1 px-3 text-xs font-semibold uppercase tracking-wide text-neutral-500">GraphQL</p>
          <ul className="space-y-0.5">
            <li>
              <Link href={href.project(projectRef, 'api/graphiql')} className="block rounded-md px-3 py-1.5 text-neutral-600 hover:bg-neutral-50 dark:text-neutral-300 dark:hover:bg-neutral-800/60">
                GraphiQL
              </Link>
            </li>
            <li>
              <ExternalLink {...GUIDES[0]} />
            </li>
          </ul>
          <p className="mt-5 mb-1 px-3 text-xs font-semibold uppercase tracking-wide text-neutral-500">More resources</p>
          <ul className="space-y-0.5">
            {GUIDES.slice(1).map((guide) => (
              <li key={guide.label}>
                <ExternalLink {...guide} />
              </li>
            ))}
          </ul>
        </nav>
        <div ref={setScrollRoot} className={cx('min-w-0 flex-1 overflow-y-auto px-6 pb-8', place.item === null && 'pt-6')}>
          <DocsScrollRoot.Provider value={scrollRoot}>
            <SectionContent section={place.section} item={place.item} actor={actor} ctx={ctx} language={place.language} keysShown={place.keysShown} controls={controls} connectExtra={connectExtra} />
          </DocsScrollRoot.Provider>
        </div>
      </div>
    </div>
  )
}

function ExternalLink({ label, href }: { label: string; href: string }) {
  return (
    <a href={href} target="_blank" rel="noreferrer" className="block rounded-md px-3 py-1.5 text-neutral-600 hover:bg-neutral-50 dark:text-neutral-300 dark:hover:bg-neutral-800/60">
      {label} <span aria-hidden>↗</span>
    </a>
  )
}

/** 'Show keys' / 'Hide keys' and the language selector. */
function DocsControls({ actor, language, keysShown }: { actor: ApiDocsActorRef; language: DocsLanguage; keysShown: boolean }) {
  const canShow = useSelector(actor, (snapshot) => snapshot.can({ type: 'keys.show' }))
  return (
    <>
      <Button onClick={() => actor.send({ type: keysShown ? 'keys.hide' : 'keys.show' })} disabled={!keysShown && !canShow}>
        {keysShown ? 'Hide keys' : 'Show keys'}
      </Button>
      <select
        aria-label="Language"
        value={language}
        onChange={(event) => actor.send({ type: 'language.select', language: event.target.value as DocsLanguage })}
        className="rounded-md border border-neutral-300 bg-white px-2 py-1.5 text-sm dark:border-neutral-700 dark:bg-neutral-950"
      >
        {(Object.keys(LANGUAGE_LABELS) as DocsLanguage[]).map((lang) => (
          <option key={lang} value={lang}>
            {LANGUAGE_LABELS[lang]}
          </option>
        ))}
      </select>
    </>
  )
}
