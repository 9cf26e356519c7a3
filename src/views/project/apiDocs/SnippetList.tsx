/**
 * Snippets as the panel shows them: a heading, the prose, the code in the chosen language and a copy button. The copy
 * buttons share one copier of the machine ('Copied' shows on the snippet copied last, for 2 s), so a page of snippets
 * runs no actor of its own.
 */
import { useSelector } from '@xstate/react'
import { memo, type MouseEvent } from 'react'
import { selectCopiedSnippet, selectSnippetCopier, type DocsLanguage } from '../../../../machines/apiDocs.machine'
import { CopyButton } from '../../shell/CopyButton'
import type { Snippet } from './snippets/types'
import type { ApiDocsActorRef } from './useApiDocsActor'

export const LANGUAGE_LABELS: Record<DocsLanguage, string> = { js: 'JavaScript', bash: 'Bash' }

/** The element id of a snippet on its page. */
export const anchorOf = (snippet: Pick<Snippet, 'id'>) => `docs-${snippet.id}`

export function SnippetList({ snippets, language, actor }: { snippets: Snippet[]; language: DocsLanguage; actor: ApiDocsActorRef }) {
  const copied = useSelector(actor, selectCopiedSnippet)
  const copier = useSelector(actor, selectSnippetCopier)
  return (
    <div className="space-y-8">
      {snippets.map((snippet) => (
        <SnippetBlock
          key={snippet.id}
          snippet={snippet}
          language={language}
          copier={copied === snippet.id ? copier : undefined}
          onCopy={(text) => actor.send({ type: 'snippet.copy', id: snippet.id, text })}
        />
      ))}
    </div>
  )
}

const SnippetBlock = memo(function SnippetBlock({
  snippet,
  language,
  copier,
  onCopy,
}: {
  snippet: Snippet
  language: DocsLanguage
  copier: ReturnType<typeof selectSnippetCopier> | undefined
  onCopy: (text: string) => void
}) {
  const code = snippet[language]
  const headingId = `${anchorOf(snippet)}-title`
  return (
    <section id={anchorOf(snippet)} aria-labelledby={headingId} className="scroll-mt-24">
      <h3 id={headingId} className="text-base font-semibold text-neutral-900 dark:text-neutral-50">
        {snippet.title}
      </h3>
      {snippet.description?.split('\n\n').map((paragraph) => (
        <p key={paragraph} className="mt-2 text-sm text-neutral-600 dark:text-neutral-300">
          {paragraph}
        </p>
      ))}
      {code === null ? (
        <p className="mt-3 text-sm text-neutral-500">No {LANGUAGE_LABELS[language]} example: switch to {LANGUAGE_LABELS[language === 'js' ? 'bash' : 'js']}.</p>
      ) : (
        <div className="mt-3 overflow-hidden rounded-lg border border-neutral-200 dark:border-neutral-800">
          <div className="flex items-center justify-between border-b border-neutral-200 bg-neutral-50 px-3 py-1.5 dark:border-neutral-800 dark:bg-neutral-900">
            <span className="text-xs text-neutral-500">{LANGUAGE_LABELS[language]}</span>
            <CopyButton copier={copier} enabled onCopy={() => onCopy(code)} />
          </div>
          <pre className="overflow-x-auto bg-white p-3 text-xs leading-relaxed dark:bg-neutral-950">
            <code>{code}</code>
          </pre>
        </div>
      )}
    </section>
  )
})

/** 'On this page': links to each snippet, scrolling inside the panel (the URL keeps only the panel's place). */
export function SnippetAnchors({ snippets }: { snippets: Snippet[] }) {
  const scrollTo = (event: MouseEvent<HTMLAnchorElement>, snippet: Snippet) => {
    event.preventDefault()
    document.getElementById(anchorOf(snippet))?.scrollIntoView?.({ behavior: 'smooth', block: 'start' })
  }
  return (
    <nav aria-label="On this page" className="text-sm">
      <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-neutral-500">On this page</p>
      <ul className="space-y-1">
        {snippets.map((snippet) => (
          <li key={snippet.id}>
            <a href={`#${anchorOf(snippet)}`} onClick={(event) => scrollTo(event, snippet)} className="text-neutral-600 hover:text-neutral-900 dark:text-neutral-300 dark:hover:text-white">
              {snippet.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}
