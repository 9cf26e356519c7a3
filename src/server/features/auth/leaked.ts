/**
 * The leaked-password rule (password_hibp_enabled). The platform asks an online breach corpus; this server has no
 * way out to it, so it checks against a bundled list instead: the ~49,000 most common passwords of public breach
 * corpora that @zxcvbn-ts/language-common ships (a maintained package of the zxcvbn-ts project). A password is
 * refused when it, or its lower-case form (the list is lower case), is on the list. Loaded on first use.
 */
import { dictionary } from '@zxcvbn-ts/language-common'

let leaked: Set<string> | undefined

export function isLeakedPassword(password: string): boolean {
  leaked ??= new Set(dictionary['passwords-common'])
  return leaked.has(password) || leaked.has(password.toLowerCase())
}
