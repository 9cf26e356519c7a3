/**
 * The rule a project's database password must meet, wherever one is typed (the new-project form, the reset in
 * Settings › Database): at least DB_PASSWORD_MIN_LENGTH characters, and three of lower case, upper case, digits and
 * symbols. It is the login of `postgres.<ref>` on the Postgres port, reachable from the network.
 */
export const DB_PASSWORD_MIN_LENGTH = 12

/** What the password still lacks, in the words the form shows; null once it is strong enough. */
export function passwordProblem(password: string): string | null {
  if (password === '') return 'Enter a database password.'
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length
  if (password.length < DB_PASSWORD_MIN_LENGTH) return `Use at least ${DB_PASSWORD_MIN_LENGTH} characters (${password.length} so far).`
  if (kinds < 3) return 'Mix at least three of: lower case, upper case, digits and symbols.'
  return null
}

/** The field's description once the rule is met. */
export const STRONG_PASSWORD_HINT = 'This password is strong enough. Keep it safe: it cannot be shown again.'
