/**
 * A modal on the native <dialog>: focus moves into it and back, Escape closes it, the rest of the
 * page is inert while it is open. Used to say what an action will do before it is done.
 */
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useT } from '../i18n/index.js';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** The confirming button; absent: only a close button. */
  confirm?: { label: string; onConfirm: () => void; busy?: boolean; danger?: boolean };
}

export function Dialog({ open, title, onClose, children, confirm }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const t = useT();
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={onClose} className="dialog">
      <h2 id={titleId}>{title}</h2>
      <div className="dialog-body">{children}</div>
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          {confirm ? t.common.cancel : t.common.close}
        </button>
        {confirm ? (
          <button
            type="button"
            className={confirm.danger ? 'danger' : 'primary'}
            onClick={confirm.onConfirm}
            disabled={confirm.busy}
            aria-busy={confirm.busy || undefined}
          >
            {confirm.label}
          </button>
        ) : null}
      </div>
    </dialog>
  );
}
