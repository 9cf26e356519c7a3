/**
 * /project/{ref}/functions/new: 'Deploy a new function' from a template, edited in the browser in the dashboard's code
 * editor with TypeScript highlighting and completion (it loads with this page).
 */
import { javascript } from '@codemirror/lang-javascript'
import { useSelector } from '@xstate/react'
import { useId, type FormEvent } from 'react'
import { Redirect } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import { selectFunctionCreateView, type functionCreateMachine } from '../../../../machines/functionCreate.machine'
import { FUNCTION_TEMPLATES } from '../../../../machines/functionTemplates'
import { href } from '../../../href'
import { CodeEditor } from '../../shell/CodeEditor'
import { Field, fieldAria } from '../../shell/Field'
import { useAppLogic } from '../../shell/logic'
import { Button, Card, InlineError, PageHeading, inputClass } from '../../shell/ui'
import { PAGE_CLASS, ProjectMachinePage } from '../ProjectMachinePage'

export type FunctionCreateActorRef = ActorRefFrom<typeof functionCreateMachine>

/** A function's entrypoint is TypeScript run by Deno. */
const TYPESCRIPT = javascript({ typescript: true })

const HEADING = { title: 'Deploy a new function', description: 'Start from a template, edit its code here, and deploy it as version 1.' }

export function NewFunctionPage() {
  const logic = useAppLogic()
  return (
    <ProjectMachinePage
      machine={logic.functionCreate}
      heading={HEADING}
      loadingLabel="Loading the editor…"
      input={(ref) => ({ ref })}
      render={(actor) => <FunctionCreate actor={actor} />}
    />
  )
}

export function FunctionCreate({ actor }: { actor: FunctionCreateActorRef }) {
  const view = useSelector(actor, selectFunctionCreateView)
  const ref = useSelector(actor, (snapshot) => snapshot.context.ref)
  const ids = { slug: useId(), template: useId(), code: useId(), verify: useId() }
  if (view.phase === 'deployed') return <Redirect to={href.project(ref, `functions/${view.slug}`)} />
  const busy = view.phase === 'deploying'
  return (
    <div className={PAGE_CLASS}>
      <PageHeading {...HEADING} />
      <Card>
        <form
          className="space-y-5 p-5"
          onSubmit={(e: FormEvent) => {
            e.preventDefault()
            actor.send({ type: 'create.submit' })
          }}
        >
          <Field id={ids.slug} label="Function name" hint="Its slug in the URL: a letter, then letters, digits, - and _." error={view.problem}>
            <input
              {...fieldAria(ids.slug, { error: view.problem, hint: true })}
              className={`${inputClass} font-mono`}
              value={view.draft.slug}
              disabled={busy}
              onChange={(e) => actor.send({ type: 'create.edit', draft: { slug: e.target.value } })}
            />
          </Field>
          <Field id={ids.template} label="Template">
            <select id={ids.template} className={inputClass} value={view.draft.template} disabled={busy} onChange={(e) => actor.send({ type: 'create.template', id: e.target.value })}>
              {FUNCTION_TEMPLATES.map((template) => (
                <option key={template.id} value={template.id}>{`${template.name} — ${template.description}`}</option>
              ))}
            </select>
          </Field>
          <div className="space-y-1.5">
            {/* A label names a form control; the editor's text is an editable element named by this one. */}
            <span id={ids.code} className="block text-sm font-medium">Code of index.ts</span>
            <CodeEditor
              labelledBy={ids.code}
              value={view.draft.code}
              language={TYPESCRIPT}
              readOnly={busy}
              onChange={(code) => actor.send({ type: 'create.edit', draft: { code } })}
            />
          </div>
          <div className="flex items-center gap-2">
            <input id={ids.verify} type="checkbox" checked={view.draft.verifyJwt} disabled={busy} onChange={(e) => actor.send({ type: 'create.edit', draft: { verifyJwt: e.target.checked } })} />
            <label htmlFor={ids.verify} className="text-sm">Enforce JWT verification</label>
          </div>
          {view.error ? <InlineError>{view.error}</InlineError> : null}
          <Button type="submit" variant="primary" disabled={!view.canSubmit}>
            {busy ? 'Deploying…' : 'Deploy function'}
          </Button>
        </form>
      </Card>
    </div>
  )
}
