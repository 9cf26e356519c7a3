import { ToolPage } from '../pages/ProjectPages'
import { PauseProjectSection } from './PauseProjectSection'

/** /project/{ref}/settings/general: the project's facts and the 'Pause project' action. */
export function GeneralSettingsPage() {
  return (
    <>
      <ToolPage title="General settings" note="The project's details; more settings arrive in later versions." />
      <div className="mx-auto -mt-2 w-full max-w-4xl px-6 pb-8">
        <PauseProjectSection />
      </div>
    </>
  )
}
