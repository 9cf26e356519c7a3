import type { SignUpBody, UpdateProfileBody } from '../../contracts/accounts'
import * as endpoints from '../../contracts/endpoints/accounts'
import { call, type CallOptions } from '../http'

// Accounts: sign-up, the profile, the verification of the e-mail address.
export const signUp = (body: SignUpBody, options?: CallOptions) => call(endpoints.signUp, {}, { ...options, body })
export const updateProfile = (body: UpdateProfileBody, options?: CallOptions) => call(endpoints.updateProfile, {}, { ...options, body })
export const sendEmailVerification = (options?: CallOptions) => call(endpoints.sendEmailVerification, {}, { ...options, body: {} })
