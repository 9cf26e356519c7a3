import * as endpoints from '../../contracts/endpoints/rest'
import { call, type CallOptions } from '../http'

// The REST schema of a project's API.
export const getProjectRestSchema = (ref: string | undefined, options?: CallOptions) => call(endpoints.getProjectRestSchema, { ref }, options)
