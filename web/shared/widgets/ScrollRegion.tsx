/**
 * The box a wide table scrolls in (`.table-wrap`) when the table has nothing focusable inside
 * (no links or buttons): Tab reaches the box so a keyboard can scroll it, and it is a named region
 * (axe: scrollable-region-focusable, WCAG 2.1.1). Tables with links inside use a plain
 * `<div className="table-wrap">`.
 */
import type { ReactNode } from 'react';

export function ScrollRegion(props: {
  /** What the table shows (its caption or the section's heading). */
  label?: string;
  /** Or the id of the element naming it. */
  labelledBy?: string;
  busy?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      className={props.className ? `table-wrap ${props.className}` : 'table-wrap'}
      aria-label={props.labelledBy ? undefined : props.label}
      aria-labelledby={props.labelledBy}
      aria-busy={props.busy || undefined}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by the keyboard
      tabIndex={0}
    >
      {props.children}
    </section>
  );
}
