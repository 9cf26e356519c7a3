export function Logo({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 109 113" className={className} aria-hidden fill="none">
      <path d="M63.7 110.3c-2.9 3.6-8.7 1.6-8.8-3L54.1 40h45.5c8.2 0 12.8 9.5 7.7 15.9L63.7 110.3Z" fill="#249361" />
      <path d="M45.3 2.1c2.9-3.6 8.7-1.6 8.8 3l.4 67.3H9.8c-8.2 0-12.8-9.5-7.7-15.9L45.3 2.1Z" fill="#3ECF8E" />
    </svg>
  )
}
