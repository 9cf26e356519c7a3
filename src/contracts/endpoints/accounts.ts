import { EmailVerificationSent, SignUpBody, UpdateProfileBody, VerifyEmailQuery } from '../accounts'
import { endpoint } from '../endpoint'
import { EmptyBody } from '../pause'
import { Profile } from '../session'

// Accounts (src/contracts/accounts.ts). Sign-up needs no session.
export const signUp = /* @__PURE__ */ endpoint('POST', 'platform', '/auth/sign-up', { body: SignUpBody, response: Profile })
export const updateProfile = /* @__PURE__ */ endpoint('PATCH', 'platform', '/profile', { body: UpdateProfileBody, response: Profile })
export const sendEmailVerification = /* @__PURE__ */ endpoint('POST', 'platform', '/profile/email-verification', { body: EmptyBody, response: EmailVerificationSent })
/** Needs no session: the link is opened from the message; it answers with a redirect to the dashboard. */
export const verifyEmail = /* @__PURE__ */ endpoint('GET', 'platform', '/auth/verify-email', { query: VerifyEmailQuery })
