/**
 * Saves text as a download named `fileName`: a Blob behind an object URL, clicked through a detached anchor with the
 * `download` attribute. The URL is released once the click has handed the Blob to the browser.
 */
export function saveAsFile({ fileName, mediaType, content }: { fileName: string; mediaType: string; content: string }) {
  const url = URL.createObjectURL(new Blob([content], { type: `${mediaType};charset=utf-8` }))
  const anchor = document.createElement('a')
  anchor.href = url
  anchor.download = fileName
  anchor.rel = 'noopener'
  anchor.style.display = 'none'
  document.body.append(anchor)
  try {
    anchor.click()
  } finally {
    anchor.remove()
    // Released on the next task: revoking in the same task can cancel the download in some browsers.
    setTimeout(() => URL.revokeObjectURL(url), 0)
  }
}
