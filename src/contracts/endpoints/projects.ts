import { endpoint } from '../endpoint'
import { Project, ProjectList, ProjectLiveResponse, ProjectStatusResponse, UpdateProjectBody } from '../projects'
import { ResourceWarningsResponse } from '../usage'

// Projects.
export const listProjects = /* @__PURE__ */ endpoint('GET', 'platform', '/projects', { response: ProjectList })
export const getProject = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref', { response: Project })
export const updateProject = /* @__PURE__ */ endpoint('PATCH', 'platform', '/projects/:ref', { body: UpdateProjectBody, response: Project })
export const getProjectStatus = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/status', { response: ProjectStatusResponse })
export const getProjectLive = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/live', { response: ProjectLiveResponse })
export const getResourceWarnings = /* @__PURE__ */ endpoint('GET', 'platform', '/projects-resource-warnings', { response: ResourceWarningsResponse })
