/**
 * Forms take their rules from the server: a 400's `errors[].path` (a JSON pointer such as
 * `/body/new_password`) lands at the field it names; what names no field is shown above the form.
 */
import type { ApiProblem } from './api.js';

export interface FormErrors {
  /** Messages per field name (the pointer without `/body/` or `/query/`). */
  fields: Record<string, string>;
  /** Messages that name no field of the form. */
  other: string[];
}

export function fieldErrors(problem: ApiProblem | null | undefined, fieldNames: readonly string[]): FormErrors {
  const out: FormErrors = { fields: {}, other: [] };
  for (const e of problem?.errors ?? []) {
    const field = e.path.replace(/^\/(body|query|params)\//, '').replace(/\//g, '.');
    const known = fieldNames.find((name) => field === name || field.startsWith(`${name}.`));
    if (known && !out.fields[known]) out.fields[known] = e.message;
    else if (!known) out.other.push(`${field}: ${e.message}`);
  }
  return out;
}

/** The values of a submitted form as strings (native inputs, no controlled state). */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of new FormData(form)) if (typeof value === 'string') out[key] = value;
  return out;
}
