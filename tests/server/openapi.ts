/** Validators from the Management API's own OpenAPI 3.0 document (../shared/reference), for contract tests. */
import type { ValidateFunction } from 'ajv'
import { expect } from 'vitest'

export { responseValidator, validatorFor } from './openapiDocument'

/** Asserts a body validates, printing the schema errors when it does not. */
export function expectValid(validate: ValidateFunction, body: unknown) {
  const ok = validate(body)
  expect(validate.errors ?? [], JSON.stringify(body)).toEqual([])
  expect(ok).toBe(true)
}
