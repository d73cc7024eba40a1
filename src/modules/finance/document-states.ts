/**
 * The state machines of invoices and credit notes, in one screen. A document is a draft until it
 * is finalized; from then on its content never changes (GoBD): corrections are credit notes, and
 * the only thing that moves on a final invoice is how much of it has been credited.
 */
import { AppError } from '../../platform/errors.js';
import { type EventTable, eventMachine } from '../../platform/state-machine.js';

export const INVOICE_STATUSES = ['draft', 'final', 'partially_credited', 'credited'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const CREDIT_NOTE_STATUSES = ['draft', 'final'] as const;
export type CreditNoteStatus = (typeof CREDIT_NOTE_STATUSES)[number];

/** Event → allowed source states → target state. */
const INVOICE_TRANSITIONS = {
  /** A number is assigned and the content frozen. */
  finalize: { from: ['draft'], to: 'final' },
  /** A final credit note covers part of the invoice. */
  credit_partially: { from: ['final', 'partially_credited'], to: 'partially_credited' },
  /** Final credit notes cover the whole invoice. */
  credit_fully: { from: ['final', 'partially_credited'], to: 'credited' },
} as const satisfies EventTable<InvoiceStatus, 'finalize' | 'credit_partially' | 'credit_fully'>;
export type InvoiceEvent = keyof typeof INVOICE_TRANSITIONS;

/** Every invoice status write goes through `invoiceStates.fire(from, event)`. */
export const invoiceStates = eventMachine<InvoiceStatus, InvoiceEvent>({
  states: INVOICE_STATUSES,
  events: INVOICE_TRANSITIONS,
  rejected: (from, event) =>
    from !== 'draft' && event === 'finalize'
      ? new AppError('already_final', 'The invoice is already final; a final invoice never changes')
      : new AppError('invalid_state', `An invoice in state ${from} cannot ${event.replace('_', ' ')}`),
});

/** What else may be done to an invoice in a state (not transitions). */
const INVOICE_ACTIONS = {
  edit: ['draft'],
  delete: ['draft'],
  send: ['final', 'partially_credited', 'credited'],
  credit: ['final', 'partially_credited'],
  einvoice: ['final', 'partially_credited', 'credited'],
} as const satisfies Record<string, readonly InvoiceStatus[]>;
export type InvoiceAction = keyof typeof INVOICE_ACTIONS;

const CREDIT_NOTE_TRANSITIONS = {
  finalize: { from: ['draft'], to: 'final' },
} as const satisfies EventTable<CreditNoteStatus, 'finalize'>;

/** Every credit note status write goes through `creditNoteStates.fire(from, event)`. */
export const creditNoteStates = eventMachine<CreditNoteStatus, keyof typeof CREDIT_NOTE_TRANSITIONS>({
  states: CREDIT_NOTE_STATUSES,
  events: CREDIT_NOTE_TRANSITIONS,
  rejected: () => new AppError('already_final', 'The credit note is already final; a final credit note never changes'),
});

const CREDIT_NOTE_ACTIONS = {
  delete: ['draft'],
  einvoice: ['final'],
} as const satisfies Record<string, readonly CreditNoteStatus[]>;

export const isFinal = (status: string): boolean => status !== 'draft';

export function assertInvoiceAction(status: string, action: InvoiceAction): void {
  if ((INVOICE_ACTIONS[action] as readonly string[]).includes(status)) return;
  if (status !== 'draft' && (action === 'edit' || action === 'delete')) {
    throw new AppError('document_final', 'A final invoice is immutable; correct it with a credit note');
  }
  if (status === 'draft') {
    throw new AppError('invoice_not_final', `Only a final invoice can be used to ${action}; finalize it first`);
  }
  throw new AppError('invalid_state', `An invoice in state ${status} cannot ${action}`);
}

export function assertCreditNoteAction(status: string, action: keyof typeof CREDIT_NOTE_ACTIONS): void {
  if ((CREDIT_NOTE_ACTIONS[action] as readonly string[]).includes(status)) return;
  throw status === 'draft'
    ? new AppError('credit_note_not_final', 'Finalize the credit note first')
    : new AppError('document_final', 'A final credit note is immutable');
}

/** The invoice state after its final credit notes add up to `credited` of `total`. */
export function creditedState(from: InvoiceStatus, credited: number, total: number): InvoiceStatus {
  return invoiceStates.fire(from, credited >= total ? 'credit_fully' : 'credit_partially');
}
