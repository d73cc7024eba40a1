/**
 * Forms take their rules from the server: a 400's `errors[].path` (a JSON pointer such as
 * `/body/new_password`) lands at the field it names; what names no field is shown above the form.
 */
import type { ApiProblem } from './api.js';
import type { Dictionary } from './i18n/index.js';

export interface FormErrors {
  /** Messages per field name (the pointer without `/body/` or `/query/`). */
  fields: Record<string, string>;
  /** Messages that name no field of the form. */
  other: string[];
}

export function fieldErrors(
  problem: ApiProblem | null | undefined,
  fieldNames: readonly string[],
  t?: Dictionary,
): FormErrors {
  const out: FormErrors = { fields: {}, other: [] };
  for (const e of problem?.errors ?? []) {
    const field = e.path.replace(/^\/(body|query|params)\//, '').replace(/\//g, '.');
    const known = fieldNames.find((name) => field === name || field.startsWith(`${name}.`));
    const message = t ? fieldMessage(e.message, t) : e.message;
    if (known && !out.fields[known]) out.fields[known] = message;
    else if (!known) out.other.push(`${field}: ${message}`);
  }
  return out;
}

/**
 * The server's field messages (JSON Schema wording, in English) in the page's language where
 * they are one of the common kinds; any other message is shown as the server wrote it.
 */
export function fieldMessage(message: string, t: Dictionary): string {
  const fewer = /must NOT have fewer than (\d+) characters/.exec(message);
  if (fewer) return t.fields.tooShort(Number(fewer[1]));
  const more = /must NOT have more than (\d+) characters/.exec(message);
  if (more) return t.fields.tooLong(Number(more[1]));
  if (/must have required property|is required/.test(message)) return t.fields.required;
  if (/must match (format|pattern)/.test(message)) return t.fields.format;
  if (/^is wrong$/.test(message)) return t.fields.wrong;
  return message;
}

/** The values of a submitted form as strings (native inputs, no controlled state). */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of new FormData(form)) if (typeof value === 'string') out[key] = value;
  return out;
}
