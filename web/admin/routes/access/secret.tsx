/**
 * A secret shown once (a new API token, a webhook signing secret): in a read-only field with a
 * copy button and the plain statement that it will not be shown again.
 */
import { useId } from 'react';
import { useDictionary } from '../../../shared/i18n/index.js';
import { toast } from '../../../shared/widgets/Toasts.js';
import { accessText } from './i18n.js';

export function OnceSecret({ label, text, secret }: { label: string; text: string; secret: string }) {
  const a = useDictionary(accessText).api;
  const id = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      toast(a.copied);
    } catch {
      toast(a.copyFailed, 'error');
    }
  };
  return (
    <div className="once-secret">
      <p className="alert alert-warning" id={`${id}-note`}>
        {text}
      </p>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <div className="secret-row">
          <input
            id={id}
            className="mono"
            readOnly
            value={secret}
            aria-describedby={`${id}-note`}
            onFocus={(e) => e.currentTarget.select()}
          />
          <button type="button" onClick={() => void copy()}>
            {a.copy}
          </button>
        </div>
      </div>
    </div>
  );
}
