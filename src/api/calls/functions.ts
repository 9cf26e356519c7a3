import * as endpoints from '../../contracts/endpoints/functions'
import { call, type CallOptions } from '../http'

// Edge functions.
export const listFunctions = (ref: string | undefined, options?: CallOptions) => call(endpoints.listFunctions, { ref }, options)
