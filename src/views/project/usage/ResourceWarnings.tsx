import { useActorRef, useSelector } from '@xstate/react'
import { useEffect } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectShowsUsageBadge, selectWarningRaised, type resourceWarningsMachine } from '../../../../machines/resourceWarnings.machine'
import { lazyComponent } from '../../shell/lazy'
import { useAppLogic } from '../../shell/logic'

export type ResourceWarningsActorRef = ActorRefFrom<typeof resourceWarningsMachine>

/** One resource-warnings actor per open project (ProjectFrame keys by ref); told the organization once known. */
export function useResourceWarnings(projectRef: string, organizationSlug: string | null): ResourceWarningsActorRef {
  const actor = useActorRef(useAppLogic().resourceWarnings, { input: { ref: projectRef, organizationSlug } })
  useEffect(() => {
    if (organizationSlug !== null) actor.send({ type: 'organization.known', slug: organizationSlug })
  }, [actor, organizationSlug])
  return actor
}

// The badge's and the banner's own code loads once one of them has something to show (after the platform's answer).
const loadNotices = () => import('./ResourceNotices')
const UsageBadgeLink = lazyComponent<{ actor: ResourceWarningsActorRef }>(() => loadNotices().then((m) => ({ default: m.UsageBadgeLink })))
const ResourceBannerNotice = lazyComponent<{ actor: ResourceWarningsActorRef; pathname: string }>(() =>
  loadNotices().then((m) => ({ default: m.ResourceBannerNotice })),
)

/** The header's 'Exceeding usage limits' badge (spec section 4), when the organization's usage calls for it. */
export function UsageBadge({ actor }: { actor: ResourceWarningsActorRef }) {
  return useSelector(actor, selectShowsUsageBadge) ? <UsageBadgeLink actor={actor} /> : null
}

/** The resource-exhaustion banner above the main content (spec section 4), when the project's warning raises one. */
export function ResourceBanner({ actor, pathname }: { actor: ResourceWarningsActorRef; pathname: string }) {
  return useSelector(actor, selectWarningRaised) ? <ResourceBannerNotice actor={actor} pathname={pathname} /> : null
}
