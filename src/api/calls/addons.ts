import * as endpoints from '../../contracts/endpoints/addons'
import { call, type CallOptions } from '../http'

// A project's add-ons.
export const getProjectAddons = (ref: string | undefined, options?: CallOptions) => call(endpoints.getProjectAddons, { ref }, options)
