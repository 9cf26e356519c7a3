import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { accessTokensMachine, type CreateTokenInput } from '../../machines/accessTokens.machine'
import type { AccessToken, CreatedAccessToken } from '../../src/contracts/session'
import { AccessTokens } from '../../src/views/account/AccessTokens'

const EXPIRING: AccessToken = {
  id: 1,
  name: 'CI',
  token_alias: 'sbp_1a2b…9f8e',
  created_at: '2026-11-01T10:00:00.000Z',
  last_used_at: null,
  expires_at: '2026-12-01T10:00:00.000Z',
}
const FOREVER: AccessToken = { ...EXPIRING, id: 2, name: 'Laptop', expires_at: null }

let stop: (() => void) | undefined
afterEach(() => stop?.())

function renderTokens() {
  const inputs: CreateTokenInput[] = []
  const actor = createActor(
    accessTokensMachine.provide({
      actors: {
        listAccessTokens: fromPromise(async () => [EXPIRING, FOREVER]),
        createAccessToken: fromPromise<CreatedAccessToken, CreateTokenInput>(async ({ input }) => {
          inputs.push(input)
          return { ...FOREVER, id: 3, name: input.name, token: `sbp_${'0'.repeat(40)}` }
        }),
      },
    }),
  ).start()
  stop = () => actor.stop()
  render(<AccessTokens tokens={actor} />)
  return { inputs }
}

it('the list shows when each token expires, or Never', async () => {
  renderTokens()
  const ci = (await screen.findByRole('cell', { name: 'CI' })).closest('tr')!
  expect(within(ci).getByRole('cell', { name: '2026-12-01' })).toBeInTheDocument()
  const laptop = screen.getByRole('cell', { name: 'Laptop' }).closest('tr')!
  expect(within(laptop).getAllByRole('cell', { name: 'Never' })).toHaveLength(2) // last used, expires
  expect(screen.getByRole('columnheader', { name: 'Expires' })).toBeInTheDocument()
})

it("a token is created with the platform's default expiry unless a number of days is chosen", async () => {
  const { inputs } = renderTokens()
  const user = userEvent.setup()
  expect(await screen.findByLabelText('Expires')).toHaveDisplayValue('Platform default')
  await user.type(screen.getByLabelText('Token name'), 'Default')
  await user.click(screen.getByRole('button', { name: 'Generate new token' }))
  await user.click(await screen.findByRole('button', { name: 'Done' }))
  await user.type(screen.getByLabelText('Token name'), 'Quarterly')
  await user.selectOptions(screen.getByLabelText('Expires'), '90 days')
  await user.click(screen.getByRole('button', { name: 'Generate new token' }))
  await screen.findByRole('region', { name: 'New token' })
  expect(inputs).toEqual([
    { name: 'Default', expiresInDays: null },
    { name: 'Quarterly', expiresInDays: 90 },
  ])
})
