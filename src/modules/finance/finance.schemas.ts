/** Request and response schemas of the finance routes. */
import { Type } from '@sinclair/typebox';
import { Body, Email, Nullable, PageMeta, Pagination, Timestamp } from '../../platform/http/schemas.js';
import { CREDIT_NOTE_STATUSES, INVOICE_STATUSES } from './document-states.js';
import { EINVOICE_PROBLEM_CODES } from './einvoice.js';
import { ACCOUNTING_SYNC_STATUSES } from './finance.tables.js';

const Country = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' });
const Text = (max: number) => Type.String({ minLength: 1, maxLength: max });
const Opt = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(s: T) =>
  Type.Optional(Nullable(s));
const DateOnly = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
const NumberFormat = Type.String({
  minLength: 3,
  maxLength: 40,
  description: 'Tokens {YYYY}, {YY}, {MM} and one {N…} run (the zero-padded sequence), e.g. RE-{YYYY}-{NNNNN}',
});

export const OrderParams = Type.Object({ orderId: Type.String({ minLength: 1, maxLength: 64 }) });

// ---- company settings ----

/** The seller's tax IDs, contact and bank, in the settings and on documents alike. */
const sellerTaxContactBank = {
  vat_id: Nullable(Type.String()),
  tax_number: Nullable(Type.String()),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  contact_name: Nullable(Type.String()),
  bank_name: Nullable(Type.String()),
  iban: Nullable(Type.String()),
  bic: Nullable(Type.String()),
  register_info: Nullable(Type.String()),
};

export const CompanySettings = Type.Object({
  legal_name: Nullable(Type.String()),
  line1: Nullable(Type.String()),
  line2: Nullable(Type.String()),
  postal_code: Nullable(Type.String()),
  city: Nullable(Type.String()),
  country: Nullable(Type.String()),
  ...sellerTaxContactBank,
  invoice_footer: Nullable(Type.String()),
  invoice_number_format: Type.String(),
  credit_note_number_format: Type.String(),
  payment_terms_days: Type.Integer(),
  time_zone: Type.String(),
  oss_registered: Type.Boolean(),
  vies_unavailable: Type.Union([Type.Literal('charge_vat'), Type.Literal('accept_unverified')]),
  missing_for_invoices: Type.Array(Type.String(), { description: 'Fields finalization still needs' }),
  missing_for_e_invoices: Type.Array(Type.String(), { description: 'Fields e-invoices to businesses still need' }),
  updated_at: Nullable(Timestamp),
});

export const CompanySettingsPut = Body(
  {
    legal_name: Opt(Text(200)),
    line1: Opt(Text(200)),
    line2: Opt(Type.String({ maxLength: 200 })),
    postal_code: Opt(Text(20)),
    city: Opt(Text(100)),
    country: Type.Optional(Nullable(Country)),
    vat_id: Opt(Type.String({ pattern: '^[A-Za-z]{2}\\s?[A-Za-z0-9+*.\\s]{2,14}$', maxLength: 20 })),
    tax_number: Opt(Text(30)),
    email: Type.Optional(Nullable(Email)),
    phone: Opt(Type.String({ pattern: '^[+0-9 ()/-]{3,40}$' })),
    contact_name: Opt(Text(200)),
    bank_name: Opt(Text(200)),
    iban: Opt(Type.String({ minLength: 15, maxLength: 42 })),
    bic: Opt(Type.String({ pattern: '^[A-Za-z]{6}[A-Za-z0-9]{2}([A-Za-z0-9]{3})?$' })),
    register_info: Opt(Text(300)),
    invoice_footer: Opt(Type.String({ maxLength: 1000 })),
    invoice_number_format: Type.Optional(NumberFormat),
    credit_note_number_format: Type.Optional(NumberFormat),
    payment_terms_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 365 })),
    time_zone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA, e.g. Europe/Berlin' })),
    oss_registered: Type.Optional(
      Type.Boolean({ description: 'Registered for the EU One-Stop-Shop (default true): EU consumers pay their rate' }),
    ),
    vies_unavailable: Type.Optional(
      Type.Union([Type.Literal('charge_vat'), Type.Literal('accept_unverified')], {
        description:
          'When VIES cannot be reached while a business buyer is priced: charge VAT as for a consumer (default) or accept the VAT ID and mark the order vat_id_unverified',
      }),
    ),
  },
  { description: 'Sets the given fields; omitted fields keep their value, null clears one' },
);

// ---- documents ----

const Seller = Type.Object({
  legal_name: Type.String(),
  line1: Type.String(),
  line2: Nullable(Type.String()),
  postal_code: Type.String(),
  city: Type.String(),
  country: Type.String(),
  ...sellerTaxContactBank,
});

const Buyer = Type.Object({
  name: Type.String(),
  company: Nullable(Type.String()),
  vat_id: Nullable(Type.String()),
  line1: Type.String(),
  line2: Nullable(Type.String()),
  postal_code: Type.String(),
  city: Type.String(),
  country: Type.String(),
  email: Type.String(),
});

/** Which row of the tax table applied (docs/finance.md): EN 16931 category (BT-151/118) and exemption text (BT-120). */
const docTaxFields = {
  tax_category: Type.String({ description: 'S | Z | K | AE | G | O' }),
  tax_exemption_reason: Nullable(Type.String()),
};

const DocLine = Type.Object({
  position: Type.Integer(),
  kind: Type.String({ description: 'item | shipping | adjustment' }),
  name: Type.String(),
  sku: Nullable(Type.String()),
  quantity: Type.Integer(),
  unit_price_cents: Type.Integer({ description: 'gross' }),
  line_total_cents: Type.Integer({ description: 'gross' }),
  tax_rate: Type.Number(),
  tax_cents: Type.Integer(),
  net_cents: Type.Integer(),
  ...docTaxFields,
  invoice_position: Nullable(Type.Integer({ description: 'credit notes: the credited invoice line' })),
});

const TaxGroup = Type.Object({
  tax_rate: Type.Number(),
  ...docTaxFields,
  net_cents: Type.Integer(),
  tax_cents: Type.Integer(),
  gross_cents: Type.Integer(),
});

/** The parties, lines, VAT groups and totals of a document (`documentBodyOut` in documents.ts). */
const documentBody = {
  seller: Nullable(Seller),
  buyer: Buyer,
  lines: Type.Array(DocLine),
  tax_breakdown: Type.Array(TaxGroup),
  net_cents: Type.Integer(),
  tax_cents: Type.Integer(),
  total_cents: Type.Integer(),
};

/** BG-14, the service period of a subscription payment (YYYY-MM-DD, both days inclusive); null otherwise. */
const servicePeriod = {
  service_period_start: Nullable(
    Type.String({ description: 'Subscription payments: first day of the billed period (Leistungszeitraum, BT-73)' }),
  ),
  service_period_end: Nullable(
    Type.String({ description: 'Subscription payments: last day of the billed period (inclusive, BT-74)' }),
  ),
};

export const Invoice = Type.Object({
  id: Type.String(),
  order_id: Type.String(),
  order_number: Type.String(),
  status: Type.Union(INVOICE_STATUSES.map((s) => Type.Literal(s))),
  number: Nullable(Type.String()),
  issue_date: Nullable(Type.String()),
  due_date: Nullable(Type.String()),
  service_date: Type.String({
    description:
      'The day the order was paid (or placed); the delivery date (BT-72) of a document without a service period',
  }),
  ...servicePeriod,
  currency: Type.String(),
  is_business: Type.Boolean({ description: 'Business buyer: e-invoices (XRechnung, ZUGFeRD) are available' }),
  buyer_reference: Nullable(Type.String()),
  note: Nullable(Type.String()),
  ...documentBody,
  paid_cents: Type.Integer(),
  amount_due_cents: Type.Integer(),
  credited_cents: Type.Integer(),
  footer: Nullable(Type.String()),
  content_hash: Nullable(Type.String({ description: 'sha256 of the frozen content (final documents)' })),
  finalized_at: Nullable(Timestamp),
  sent_at: Nullable(Timestamp),
  sent_to: Nullable(Type.String()),
  send_count: Type.Integer(),
  lexware_voucher_id: Nullable(
    Type.String({ description: "Lexware's voucher id once the document is booked (null: not booked)" }),
  ),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const CreditNote = Type.Object({
  id: Type.String(),
  invoice_id: Type.String(),
  invoice_number: Type.String(),
  order_id: Type.String(),
  status: Type.Union(CREDIT_NOTE_STATUSES.map((s) => Type.Literal(s))),
  number: Nullable(Type.String()),
  issue_date: Nullable(Type.String()),
  ...servicePeriod,
  currency: Type.String(),
  is_business: Type.Boolean(),
  reason: Nullable(Type.String()),
  ...documentBody,
  footer: Nullable(Type.String()),
  content_hash: Nullable(Type.String()),
  finalized_at: Nullable(Timestamp),
  lexware_voucher_id: Nullable(
    Type.String({ description: "Lexware's voucher id once the document is booked (null: not booked)" }),
  ),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const InvoiceCreate = Body({
  is_business: Type.Optional(Type.Boolean({ description: 'Default: the buyer has a VAT ID or a company name' })),
  buyer_reference: Opt(Type.String({ minLength: 1, maxLength: 200, description: 'BT-10, e.g. a Leitweg-ID' })),
  note: Opt(Type.String({ minLength: 1, maxLength: 1000 })),
});

export const InvoicePatch = Body({
  is_business: Type.Optional(Type.Boolean()),
  buyer_reference: Opt(Type.String({ minLength: 1, maxLength: 200 })),
  note: Opt(Type.String({ minLength: 1, maxLength: 1000 })),
  buyer: Type.Optional(
    Body({
      name: Type.Optional(Type.String({ maxLength: 200 })),
      company: Opt(Type.String({ maxLength: 200 })),
      vat_id: Opt(Type.String({ pattern: '^[A-Za-z]{2}\\s?[A-Za-z0-9+*.\\s]{2,14}$', maxLength: 20 })),
      line1: Type.Optional(Type.String({ maxLength: 200 })),
      line2: Opt(Type.String({ maxLength: 200 })),
      postal_code: Type.Optional(Type.String({ maxLength: 20 })),
      city: Type.Optional(Type.String({ maxLength: 100 })),
      country: Type.Optional(Country),
      email: Type.Optional(Email),
    }),
  ),
});

const Status = Type.Union(INVOICE_STATUSES.map((s) => Type.Literal(s)));
export const InvoiceListQuery = Type.Object(
  {
    status: Type.Optional(Status),
    order_id: Type.Optional(Type.String({ maxLength: 64 })),
    issued_from: Type.Optional(DateOnly),
    issued_to: Type.Optional(DateOnly),
    created_from: Type.Optional(Timestamp),
    created_to: Type.Optional(Timestamp),
    q: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Number, order number, buyer name or e-mail' }),
    ),
    ...Pagination,
  },
  { additionalProperties: false },
);
export const InvoiceList = Type.Object({ invoices: Type.Array(Invoice), ...PageMeta });

export const CreditNoteListQuery = Type.Object(
  {
    status: Type.Optional(Type.Union(CREDIT_NOTE_STATUSES.map((s) => Type.Literal(s)))),
    invoice_id: Type.Optional(Type.String({ maxLength: 64 })),
    order_id: Type.Optional(Type.String({ maxLength: 64 })),
    issued_from: Type.Optional(DateOnly),
    issued_to: Type.Optional(DateOnly),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    ...Pagination,
  },
  { additionalProperties: false },
);
export const CreditNoteList = Type.Object({ credit_notes: Type.Array(CreditNote), ...PageMeta });

export const CreditNoteCreate = Body(
  {
    lines: Type.Optional(
      Type.Array(
        Body({
          position: Type.Integer({ minimum: 1, description: 'The invoice line' }),
          quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
        }),
        { minItems: 1, maxItems: 500 },
      ),
    ),
    amount_cents: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'Gross amount, split over the tax rates' }),
    ),
    reason: Opt(Type.String({ minLength: 1, maxLength: 500 })),
  },
  { description: 'Empty: credit everything not yet credited. Either lines or amount_cents.' },
);

export const SendEmail = Body({
  to: Type.Optional(Email),
  subject: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  message: Type.Optional(Type.String({ minLength: 1, maxLength: 5000 })),
});

export const SendEmailResponse = Type.Object({
  invoice: Invoice,
  email_id: Type.String(),
  to: Type.String(),
  attachment: Type.Object({ filename: Type.String(), size_bytes: Type.Integer() }),
});

export const PdfQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Union([Type.Literal('pdf'), Type.Literal('zugferd')], {
        default: 'pdf',
        description: 'zugferd: Factur-X/ZUGFeRD EN 16931 (PDF/A-3 with embedded CII XML), business buyers only',
      }),
    ),
    download: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'true: sent as an attachment (a download) instead of inline (shown in the browser)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const XmlQuery = Type.Object(
  {
    syntax: Type.Optional(
      Type.Union([Type.Literal('ubl'), Type.Literal('cii')], { default: 'ubl', description: 'XRechnung 3.0 syntax' }),
    ),
  },
  { additionalProperties: false },
);

/** A binary body: no serializer runs, the OpenAPI document shows the media type. */
export const binary = (mediaType: string, description: string) => ({
  description,
  content: { [mediaType]: { schema: { type: 'string', format: 'binary' } } },
});

export const FinalizePreview = Type.Object({
  invoice_id: Type.String(),
  number: Type.String({
    description: 'The number finalizing now would take (not reserved: a finalization in between takes it first)',
  }),
  issue_date: Type.String(),
  due_date: Nullable(Type.String()),
  total_cents: Type.Integer(),
  currency: Type.String(),
  can_finalize: Type.Boolean({ description: 'false: finalizing now would be refused with `blocker`' }),
  blocker: Nullable(
    Type.Object({
      code: Type.String({ description: 'The problem code finalizing would answer' }),
      errors: Type.Array(Type.Object({ path: Type.String(), message: Type.String() })),
    }),
  ),
});

export const CreditNotePreview = Type.Object({
  invoice_id: Type.String(),
  invoice_number: Nullable(Type.String()),
  currency: Type.String(),
  lines: Type.Array(DocLine),
  tax_breakdown: Type.Array(TaxGroup),
  net_cents: Type.Integer(),
  tax_cents: Type.Integer(),
  total_cents: Type.Integer(),
  left_before_cents: Type.Integer({ description: 'Gross left to credit before this credit note (drafts count)' }),
  left_after_cents: Type.Integer(),
  invoice_lines: Type.Array(
    Type.Object({
      position: Type.Integer(),
      name: Type.String(),
      quantity: Type.Integer(),
      quantity_left: Type.Integer({ description: 'Not yet credited by credit notes by lines (drafts count)' }),
      unit_price_cents: Type.Integer(),
    }),
  ),
});

// ---- accounting ----

export const ConnectionState = Type.Object({
  provider: Type.String(),
  connected: Type.Boolean(),
  connected_at: Nullable(Timestamp),
  updated_at: Nullable(Timestamp),
});

export const Connect = Body({ api_key: Type.String({ minLength: 8, maxLength: 500, description: 'Lexware API key' }) });
export const ConnectResponse = Type.Object({
  provider: Type.String(),
  connected: Type.Boolean(),
  connected_at: Timestamp,
  updated_at: Timestamp,
});
export const TestResponse = Type.Object({
  ok: Type.Boolean(),
  provider: Type.String(),
  organization_id: Nullable(Type.String()),
  company_name: Nullable(Type.String()),
  provider_status: Nullable(Type.Integer({ description: "The provider's HTTP status (null: unreachable)" })),
  error: Nullable(Type.String({ description: "The provider's error" })),
});
export const SyncState = Type.Object({
  order_id: Type.String(),
  provider: Type.String(),
  status: Type.Union((['none', ...ACCOUNTING_SYNC_STATUSES] as const).map((s) => Type.Literal(s))),
  provider_id: Nullable(Type.String({ description: "The provider's voucher id of the order's invoice" })),
  last_error: Nullable(Type.String()),
  attempts: Type.Integer(),
  synced_at: Nullable(Timestamp),
  updated_at: Nullable(Timestamp),
});

export const SyncListQuery = Type.Object(
  {
    status: Type.Optional(
      Type.Union(
        ACCOUNTING_SYNC_STATUSES.map((s) => Type.Literal(s)),
        {
          description: 'failed: the syncs that need a retry (last_error holds the provider’s message)',
        },
      ),
    ),
    ...Pagination,
  },
  { additionalProperties: false },
);
export const SyncList = Type.Object({
  syncs: Type.Array(
    Type.Object({
      ...SyncState.properties,
      order_number: Nullable(Type.String()),
      created_at: Timestamp,
    }),
  ),
  ...PageMeta,
});

// ---- e-invoice readiness (issue 31) ----

const ProblemCode = Type.Union(
  EINVOICE_PROBLEM_CODES.map((c) => Type.Literal(c)),
  { description: 'Stable reason code (translate it; `message` is English)' },
);
const ReadinessItem = Type.Object({
  field: Type.String({ description: 'The company settings field (PUT /api/admin/settings/company)' }),
  path: Type.String({ description: 'JSON pointer, e.g. /settings/company/iban' }),
  message_code: ProblemCode,
});
export const EinvoiceReadiness = Type.Object({
  ready: Type.Boolean({ description: 'true: the company data is complete for an EN 16931 e-invoice to a business' }),
  missing: Type.Array(ReadinessItem),
  conditional: Type.Array(ReadinessItem, {
    description:
      'Missing only for documents of some VAT categories: tax_number (category O, outside the EU), vat_id (reverse charge, intra-community supplies)',
  }),
});
export const EinvoiceCheck = Type.Object({
  invoice_id: Type.String(),
  status: Type.String(),
  applicable: Type.Boolean({ description: 'false: a consumer invoice, which gets no e-invoice' }),
  would_pass: Type.Boolean({
    description: 'The e-invoice would be written and pass the checks (a draft: if finalized now)',
  }),
  problems: Type.Array(
    Type.Object({
      field: Type.String(),
      path: Type.String({ description: 'JSON pointer into the document: /seller/…, /buyer/…, /lines/0/…' }),
      message_code: ProblemCode,
      message: Type.String(),
    }),
  ),
});
