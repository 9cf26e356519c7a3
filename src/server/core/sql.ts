/** SQL text the server builds around names it does not control (tables, columns, roles, databases). */

/** A quoted SQL identifier: any name (spaces, quotes, unicode) stands for itself and can never end the quoting. */
export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`
