/** The skeleton of project home while the project loads (spec 2). */

const bar = 'animate-pulse rounded bg-neutral-200 dark:bg-neutral-800'

/** Project home's skeleton: the shape of its heading, facts and shortcuts, announced as loading. */
export function ProjectHomeSkeleton() {
  return (
    <div role="status" aria-live="polite" aria-label="Loading project…" className="mx-auto w-full max-w-4xl px-6 py-8">
      <span className="sr-only">Loading project…</span>
      <div aria-hidden className="space-y-6">
        <div className="space-y-2">
          <div className={`${bar} h-7 w-56`} />
          <div className={`${bar} h-4 w-72`} />
        </div>
        <div className="space-y-3 rounded-lg border border-neutral-200 p-5 dark:border-neutral-800">
          {[0, 1, 2, 3, 4, 5].map((row) => (
            <div key={row} className="grid grid-cols-3 gap-4">
              <div className={`${bar} h-4`} />
              <div className={`${bar} col-span-2 h-4`} />
            </div>
          ))}
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          {[0, 1, 2, 3].map((card) => (
            <div key={card} className={`${bar} h-11`} />
          ))}
        </div>
      </div>
    </div>
  )
}
