/**
 * What a bucket takes: its allowed MIME types and its file size limit with a unit. One pair of fields for both places
 * a bucket's settings are typed (the new-bucket dialog of the bucket list, and a bucket's settings on its own page).
 */
import { SIZE_UNITS, type BucketDraft, type DraftErrors, type SizeUnit } from '../../../../machines/storageBuckets.machine'
import { Field, fieldAria } from '../../shell/Field'
import { cx, inputClass } from '../../shell/ui'

export function BucketLimitFields({
  id,
  draft,
  errors,
  busy,
  onEdit,
}: {
  /** The form's `useId()`: the fields' ids are made from it. */
  id: string
  draft: Pick<BucketDraft, 'mimeTypes' | 'sizeLimit' | 'sizeUnit'>
  errors: DraftErrors
  /** While the draft is being saved: read-only. */
  busy: boolean
  onEdit: (draft: Partial<BucketDraft>) => void
}) {
  return (
    <>
      <Field id={`${id}-mime`} label="Allowed MIME types" hint="Comma-separated, like image/png, image/*. Leave empty to allow all types." error={errors.mimeTypes}>
        <input
          {...fieldAria(`${id}-mime`, { error: errors.mimeTypes, hint: true })}
          className={inputClass}
          value={draft.mimeTypes}
          readOnly={busy}
          placeholder="All types"
          autoComplete="off"
          onChange={(event) => onEdit({ mimeTypes: event.target.value })}
        />
      </Field>
      <Field id={`${id}-size`} label="File size limit" hint="Leave empty for no limit." error={errors.sizeLimit}>
        <div className="flex gap-2">
          <input
            {...fieldAria(`${id}-size`, { error: errors.sizeLimit, hint: true })}
            className={inputClass}
            inputMode="decimal"
            value={draft.sizeLimit}
            readOnly={busy}
            placeholder="No limit"
            autoComplete="off"
            onChange={(event) => onEdit({ sizeLimit: event.target.value })}
          />
          <select
            aria-label="Size unit"
            className={cx(inputClass, 'w-28')}
            value={draft.sizeUnit}
            disabled={busy}
            onChange={(event) => onEdit({ sizeUnit: event.target.value as SizeUnit })}
          >
            {SIZE_UNITS.map((unit) => (
              <option key={unit} value={unit}>
                {unit}
              </option>
            ))}
          </select>
        </div>
      </Field>
    </>
  )
}
