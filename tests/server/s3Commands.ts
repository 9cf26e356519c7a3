/**
 * What an S3 client sends, recorded at the client itself (a step of the SDK's middleware stack): each command's name
 * and input, in order, whatever the store answers.
 */
import { randomUUID } from 'node:crypto'
import type { S3Client } from '@aws-sdk/client-s3'

export interface SentCommand {
  command: string
  input: Record<string, unknown>
}

export function recordCommands(client: S3Client): { sent: SentCommand[]; stop: () => void } {
  const sent: SentCommand[] = []
  const name = `record-commands-${randomUUID()}`
  client.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push({ command: context.commandName ?? '?', input: args.input as Record<string, unknown> })
      return next(args)
    },
    { step: 'initialize', name },
  )
  return { sent, stop: () => void client.middlewareStack.remove(name) }
}
