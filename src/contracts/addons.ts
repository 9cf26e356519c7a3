/**
 * A project's add-ons (spec 3: selected_addons, with type 'pitr' when Point in Time Recovery is on).
 *   GET /platform/projects/{ref}/billing/addons → ProjectAddons
 * The branching modal reads it for its PITR notice; a failed read leaves PITR unknown (the notice shows).
 */
import * as z from 'zod/mini'

export const SelectedAddon = z.object({ type: z.string() })
export type SelectedAddon = z.infer<typeof SelectedAddon>

export const ProjectAddons = z.object({ selected_addons: z.array(SelectedAddon) })
export type ProjectAddons = z.infer<typeof ProjectAddons>

export const hasPitr = (addons: ProjectAddons) => addons.selected_addons.some((addon) => addon.type === 'pitr')
