/** The accounting-integration port (docs/ARCHITECTURE.md): what the finance module needs of a bookkeeping service. */

/** EN 16931 VAT category codes (UNCL5305) a document's breakdown uses (docs/finance.md "Which tax applies"). */
export type VatCategory = 'S' | 'Z' | 'K' | 'AE' | 'G' | 'O';

/** A bookkeeping voucher for one final invoice or credit note (amounts gross, in cents). */
export interface AccountingVoucher {
  kind: 'invoice' | 'credit_note';
  number: string;
  /** YYYY-MM-DD */
  date: string;
  /** YYYY-MM-DD; invoices with an open amount */
  dueDate: string | null;
  /** YYYY-MM-DD, the delivery date */
  serviceDate: string | null;
  currency: string;
  totalGrossCents: number;
  totalTaxCents: number;
  /**
   * One item per VAT category and tax rate (the document's breakdown); `taxCategory` is the
   * EN 16931 code (S, Z, K, AE, G, O) that decides the bookkeeping category.
   */
  items: { grossCents: number; taxCents: number; taxRate: number; taxCategory: VatCategory }[];
  remark: string;
}

export interface AccountingProfile {
  organizationId: string | null;
  companyName: string | null;
}

export interface AccountingClient {
  /** Calls the provider with the stored key; resolves with the account it belongs to. */
  testConnection(): Promise<AccountingProfile>;
  /** Creates the voucher; resolves with the provider's id. */
  createVoucher(voucher: AccountingVoucher): Promise<{ id: string }>;
}

/** A failed provider call: `retryable` for timeouts, network errors, 429 and 5xx. */
export class AccountingError extends Error {
  override name = 'AccountingError';
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}
