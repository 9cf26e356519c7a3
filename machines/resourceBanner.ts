/**
 * The resource-exhaustion banner's rules (spec section 4): its variant, texts and link for a project's warning, and the
 * pages it stays off. Apart from the resource warnings' flow, so their texts load with the banner, not in the first load.
 */
import type { SnapshotFrom } from 'xstate'
import type { Resource, ResourceWarning } from '../src/contracts/usage'
import { href } from '../src/href'
import { raisedResources, type resourceWarningsMachine } from './resourceWarnings.machine'

export const RESOURCE_TEXT: Record<Resource, { name: string; anchor: string }> = {
  disk_io_exhaustion: { name: 'Disk IO budget', anchor: 'disk_io' },
  disk_space_exhaustion: { name: 'disk space', anchor: 'disk_space' },
  cpu_exhaustion: { name: 'CPU', anchor: 'cpu' },
  memory_and_swap_exhaustion: { name: 'memory and swap', anchor: 'ram' },
}

export type ResourceBanner =
  | { show: false }
  | { show: true; variant: 'destructive' | 'warning'; title: string; message: string; href: string; linkLabel: string }

const isUsagePage = (pathname: string) => /^\/org\/[^/]+\/usage(\/|$)/.test(pathname)
const isInfrastructurePage = (pathname: string) => /^\/project\/[^/]+\/settings\/infrastructure(\/|$)/.test(pathname)
const isDatabaseSettingsPage = (pathname: string) => /^\/project\/[^/]+\/settings\/database(\/|$)/.test(pathname)

/** The banner for the page at `pathname` (without query or hash), by the rules of spec section 4. */
export function resourceBannerFor(warning: ResourceWarning | undefined, ref: string, pathname: string): ResourceBanner {
  if (!warning) return { show: false }
  const raised = raisedResources(warning)
  const readOnly = warning.is_readonly_mode_enabled
  if (!readOnly && raised.length === 0) return { show: false }
  if (!readOnly && (isUsagePage(pathname) || isInfrastructurePage(pathname))) return { show: false }
  if (readOnly && isDatabaseSettingsPage(pathname)) return { show: false }
  const critical = raised.some((resource) => warning[resource] === 'critical')
  const variant = readOnly || critical ? 'destructive' : 'warning'
  if (readOnly) {
    return {
      show: true,
      variant,
      title: 'Your project is in read-only mode',
      message: 'The database ran out of disk space and now only accepts reads. Increase the disk size to accept writes again.',
      href: href.project(ref, 'settings/database'),
      linkLabel: 'Increase disk size',
    }
  }
  const names = raised.map((resource) => RESOURCE_TEXT[resource].name)
  const what = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
  return {
    show: true,
    variant,
    title: critical ? `Your project has exhausted its ${what}` : `Your project is running out of ${what}`,
    message: critical
      ? 'Requests may fail or slow down until the load drops or the compute is upgraded.'
      : 'Performance may degrade soon. Review the usage or upgrade the compute before it runs out.',
    href: href.infrastructure(ref, RESOURCE_TEXT[raised[0]].anchor),
    linkLabel: 'Check usage',
  }
}

export function selectResourceBanner(pathname: string) {
  return (snapshot: SnapshotFrom<typeof resourceWarningsMachine>): ResourceBanner => {
    const { warnings, ref } = snapshot.context
    return resourceBannerFor(warnings?.find((w) => w.project === ref), ref, pathname)
  }
}
