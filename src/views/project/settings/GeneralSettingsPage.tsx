import { useSelector } from '@xstate/react'
import { selectProject } from '../../../../machines/projectStatus.machine'
import { PageHeading } from '../../shell/ui'
import { ProjectFacts } from '../home/ProjectHome'
import { useProjectActor } from '../../shell/projectActor'
import { CustomDomainSection } from './CustomDomain'
import { PauseProjectSection } from './PauseProjectSection'

/** /project/{ref}/settings/general: the project's facts, its custom domain and the 'Pause project' action. */
export function GeneralSettingsPage() {
  const project = useSelector(useProjectActor(), selectProject)
  return (
    <div className="mx-auto w-full max-w-4xl space-y-6 px-6 py-8">
      <PageHeading title="General settings" description="The project's details, its custom domain, and pausing it." />
      {project ? <ProjectFacts project={project} /> : null}
      {project ? <CustomDomainSection projectRef={project.ref} /> : null}
      <PauseProjectSection />
    </div>
  )
}
