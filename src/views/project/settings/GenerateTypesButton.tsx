import { useActorRef, useSelector } from '@xstate/react'
import { Suspense } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectTypeGenerationView, type ToastsRef, type typeGenerationMachine } from '../../../../machines/typeGeneration.machine'
import { useLoaded } from '../../shell/lazy'
import { useAppLogic, type AppLogic } from '../../shell/logic'
import { Button } from '../../shell/ui'
import { useProjectActor } from '../../shell/projectActor'

export type TypeGenerationActorRef = ActorRefFrom<typeof typeGenerationMachine>

const LABEL = 'Generate types'

/**
 * 'Generate types' for the open project: downloads its TypeScript types as supabase.ts; the outcome shows in the
 * project's toast region. Disabled while its code loads and while a generation runs.
 */
export function GenerateTypesButton({ projectRef }: { projectRef: string }) {
  const logic = useAppLogic()
  const toasts = useSelector(useProjectActor(), (snapshot) => snapshot.children.toasts)
  if (!toasts) return null
  return (
    <Suspense fallback={<Button disabled>{LABEL}</Button>}>
      <TypeGenerationHost key={projectRef} machine={logic.typeGeneration} projectRef={projectRef} toasts={toasts} />
    </Suspense>
  )
}

function TypeGenerationHost({ machine, projectRef, toasts }: { machine: AppLogic['typeGeneration']; projectRef: string; toasts: ToastsRef }) {
  const actor = useActorRef(useLoaded(machine), { input: { ref: projectRef, toasts } })
  return <GenerateTypes actor={actor} />
}

export function GenerateTypes({ actor }: { actor: TypeGenerationActorRef }) {
  const view = useSelector(actor, selectTypeGenerationView)
  return (
    <Button disabled={!view.canGenerate} aria-busy={view.generating} onClick={() => actor.send({ type: 'types.generate' })}>
      {view.generating ? 'Generating types…' : LABEL}
    </Button>
  )
}
