/**
 * The URL parameter that opens the 'Enable database branching' dialog over any project page (the command menu, the
 * project home, a link or a reload), hosted by the project layout.
 */
export const BRANCHING_PARAM = 'enableBranching'

/** The current page's address with the branching dialog open. */
export const branchingHref = (path: string) => `${path}?${BRANCHING_PARAM}=open`
