import { useState, type FormEvent } from 'react'
import { Button, Card, PageHeading, inputClass } from '../shell/ui'
import { useDocumentTitle } from '../shell/useDocumentTitle'

const CATEGORIES = [
  { value: 'Problem', label: 'Issues with APIs / client libraries' },
  { value: 'Database_unresponsive', label: 'Database unresponsive' },
  { value: 'Performance', label: 'Performance issues' },
  { value: 'Billing', label: 'Billing' },
  { value: 'Login_issues', label: 'Login issues' },
] as const

interface SupportPrefill {
  category: string
  ref: string
  subject: string
  message: string
}

/** Contact support, prefilled from the query (category, ref, subject, message). The form values are the form's own. */
export function SupportPage({ prefill }: { prefill: SupportPrefill }) {
  useDocumentTitle('Support')
  const [category, setCategory] = useState(prefill.category || 'Problem')
  const [ref, setRef] = useState(prefill.ref)
  const [subject, setSubject] = useState(prefill.subject)
  const [message, setMessage] = useState(prefill.message)
  const known = CATEGORIES.some((entry) => entry.value === category)

  return (
    <div className="mx-auto w-full max-w-2xl px-6 py-8">
      <PageHeading title="Contact support" description="Tell us what is happening; we answer by e-mail." />
      <Card className="p-6">
        <form className="space-y-4" onSubmit={(event: FormEvent) => event.preventDefault()}>
          <div className="space-y-1.5">
            <label htmlFor="support-category" className="text-sm font-medium">
              Category
            </label>
            <select id="support-category" className={inputClass} value={category} onChange={(event) => setCategory(event.target.value)}>
              {CATEGORIES.map((entry) => (
                <option key={entry.value} value={entry.value}>
                  {entry.label}
                </option>
              ))}
              {known ? null : <option value={category}>{category}</option>}
            </select>
          </div>
          <div className="space-y-1.5">
            <label htmlFor="support-ref" className="text-sm font-medium">
              Project reference
            </label>
            <input id="support-ref" className={`${inputClass} font-mono`} value={ref} onChange={(event) => setRef(event.target.value)} />
          </div>
          <div className="space-y-1.5">
            <label htmlFor="support-subject" className="text-sm font-medium">
              Subject
            </label>
            <input id="support-subject" className={inputClass} value={subject} onChange={(event) => setSubject(event.target.value)} />
          </div>
          <div className="space-y-1.5">
            <label htmlFor="support-message" className="text-sm font-medium">
              Message
            </label>
            <textarea id="support-message" rows={6} className={inputClass} value={message} onChange={(event) => setMessage(event.target.value)} />
          </div>
          <div className="flex items-center justify-between gap-4">
            <p className="text-xs text-neutral-500">Sending tickets from the dashboard arrives in a later version.</p>
            <Button type="submit" variant="primary" disabled>
              Send support request
            </Button>
          </div>
        </form>
      </Card>
    </div>
  )
}
