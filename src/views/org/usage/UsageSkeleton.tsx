/** The usage page's skeleton (spec 2): the shape of the page while its figures load, announced once as loading. */
export function UsageSkeleton({ label = 'Loading usage…' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" aria-busy="true" className="space-y-4">
      <span className="sr-only">{label}</span>
      <div aria-hidden className="animate-pulse space-y-4">
        <div className="h-9 w-64 rounded-md bg-neutral-200 dark:bg-neutral-800" />
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="space-y-3 rounded-lg border border-neutral-200 p-5 dark:border-neutral-800">
            <div className="h-4 w-40 rounded bg-neutral-200 dark:bg-neutral-800" />
            <div className="h-3 w-72 rounded bg-neutral-100 dark:bg-neutral-800/60" />
            <div className="h-24 rounded bg-neutral-100 dark:bg-neutral-800/60" />
          </div>
        ))}
      </div>
    </div>
  )
}
