/** /support/new prefilled from the spec's query parameters (category, ref, subject, message). */
export function supportLink(fields: { category: string; ref: string; subject: string; message: string }) {
  return `/support/new?${new URLSearchParams(fields).toString()}`
}
