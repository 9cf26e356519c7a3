import { TextLink } from './shell/ui'
import { useDocumentTitle } from './shell/useDocumentTitle'
import { href } from '../href'

export function NotFound() {
  useDocumentTitle('Page not found')
  return (
    <main className="flex min-h-[60vh] flex-col items-center justify-center gap-3 p-8 text-center">
      <p className="text-sm font-semibold text-emerald-600">404</p>
      <h1 className="text-2xl font-semibold tracking-tight">Page not found</h1>
      <p className="max-w-md text-sm text-neutral-500 dark:text-neutral-400">
        The page you are looking for does not exist or has moved.
      </p>
      <TextLink href={href.projects()}>Back to your projects</TextLink>
    </main>
  )
}
