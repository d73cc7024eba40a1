/** A labelled native input with its server-side error tied to it (aria-invalid, aria-describedby). */
import { type InputHTMLAttributes, useId } from 'react';

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  name: string;
  error?: string | undefined;
  hint?: string;
}

export function Field({ label, name, error, hint, id: givenId, ...input }: FieldProps) {
  const autoId = useId();
  // a given id (e.g. the target of an in-page link to the field) is the input's and its label's
  const id = givenId ?? autoId;
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      <input
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        {...input}
      />
      {error ? (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </div>
  );
}
