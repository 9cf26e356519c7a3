/** The live actor of the copy button: the browser's clipboard. */
import { fromPromise } from 'xstate'
import { copyButtonMachine } from '../../../machines/copyButton.machine'

/** A refusal (no permission, insecure origin, no clipboard) fails the copy; the button returns to 'Copy'. */
export const writeClipboard = fromPromise(async ({ input }: { input: { text: string } }) => {
  if (!navigator.clipboard) throw new Error('The clipboard is not available')
  await navigator.clipboard.writeText(input.text)
})

export const liveCopyButtonMachine = copyButtonMachine.provide({ actors: { writeClipboard } })
