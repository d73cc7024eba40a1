/**
 * Short notices (saved, failed) in one polite live region that screen readers announce; each
 * fades after a few seconds and can be dismissed. `toast()` works from anywhere.
 */
import { useSyncExternalStore } from 'react';
import { useT } from '../i18n/index.js';

interface Toast {
  id: number;
  text: string;
  kind: 'info' | 'error';
}

let toasts: Toast[] = [];
let next = 1;
const listeners = new Set<() => void>();
const emit = () => {
  for (const l of listeners) l();
};

export function toast(text: string, kind: Toast['kind'] = 'info'): void {
  const id = next++;
  toasts = [...toasts, { id, text, kind }];
  emit();
  setTimeout(() => dismiss(id), kind === 'error' ? 10_000 : 5_000);
}

function dismiss(id: number): void {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

export function Toasts() {
  const list = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => toasts,
  );
  const t = useT();
  return (
    <section className="toasts" aria-live="polite" aria-label={t.common.notifications}>
      {list.map((item) => (
        <div key={item.id} className={`toast toast-${item.kind}`} role={item.kind === 'error' ? 'alert' : 'status'}>
          <span>{item.text}</span>
          <button type="button" className="link" onClick={() => dismiss(item.id)} aria-label={t.common.close}>
            ×
          </button>
        </div>
      ))}
    </section>
  );
}
