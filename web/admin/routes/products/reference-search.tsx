/** The search beside a reference picker, shown when a shop has more records than a picker lists. */
import { useT } from '../../../shared/i18n/index.js';
import type { ReferencePicker } from './shared.js';

export function ReferenceSearch({ id, label, picker }: { id: string; label: string; picker: ReferencePicker }) {
  const t = useT();
  if (!picker.more && picker.search === '') return null;
  return (
    <div className="field reference-search">
      <label htmlFor={id}>{t.products.pickerSearch(label)}</label>
      <input
        id={id}
        type="search"
        autoComplete="off"
        value={picker.search}
        aria-describedby={`${id}-hint`}
        onChange={(e) => picker.setSearch(e.currentTarget.value)}
        onKeyDown={(e) => {
          // Enter narrows the picker; it does not submit the surrounding form
          if (e.key === 'Enter') e.preventDefault();
        }}
      />
      <span id={`${id}-hint`} className="small muted">
        {t.products.pickerHint(picker.options.length)}
      </span>
    </div>
  );
}
