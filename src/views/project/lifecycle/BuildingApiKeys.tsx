import { ApiKeysHost } from '../ApiKeysHost'
import { ApiKeysPanel } from '../ApiKeysPanels'

/** The 'Project API keys' panel as the building screen shows it, while the project is being set up. */
export default function BuildingApiKeys() {
  return <ApiKeysHost>{(actor) => <ApiKeysPanel actor={actor} />}</ApiKeysHost>
}
