/**
 * Finance: the seller's company data, invoices and credit notes (frozen documents with gapless
 * numbers) and the accounting integration (credentials and per-order sync state).
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { cents, ts } from '../../platform/db/columns.js';
import { type LineAmounts, orders } from '../orders/orders.tables.js';
import { shopRef, shops } from '../shops/shops.tables.js';
import type { TaxCategory } from '../tax/index.js';
import type { CreditNoteStatus, InvoiceStatus } from './document-states.js';

/** The seller as printed on a document (a snapshot of the company settings). */
export interface SellerData {
  legal_name: string;
  line1: string;
  line2: string | null;
  postal_code: string;
  city: string;
  country: string;
  vat_id: string | null;
  tax_number: string | null;
  email: string | null;
  phone: string | null;
  contact_name: string | null;
  bank_name: string | null;
  iban: string | null;
  bic: string | null;
  register_info: string | null;
}

/** The buyer as printed on a document. */
export interface BuyerData {
  name: string;
  company: string | null;
  vat_id: string | null;
  line1: string;
  line2: string | null;
  postal_code: string;
  city: string;
  country: string;
  email: string;
  /** Deliver-to address (BG-15) when goods were shipped; absent on documents made before it. */
  delivery_address?: { line1: string; postal_code: string; city: string; country: string } | null;
}

/** One line of a document. Amounts are gross (prices are gross, docs/finance.md); net = gross − tax. */
export interface DocLine extends LineAmounts {
  position: number;
  kind: 'item' | 'shipping' | 'adjustment';
  /** Credit notes: the invoice line this line credits (null for an amount credit). */
  invoice_position: number | null;
}

/** Per tax rate: sums of the rounded lines, so the document adds up to the cent. */
export interface TaxGroup {
  tax_rate: number;
  tax_category?: TaxCategory;
  tax_exemption_reason?: string | null;
  net_cents: number;
  tax_cents: number;
  gross_cents: number;
}

/** What an invoice and a credit note print: the parties, the lines, the tax groups and the totals. */
const documentContent = () => ({
  seller: jsonb('seller').$type<SellerData>(),
  buyer: jsonb('buyer').notNull().$type<BuyerData>(),
  lines: jsonb('lines').notNull().$type<DocLine[]>(),
  taxGroups: jsonb('tax_groups').notNull().$type<TaxGroup[]>(),
  netCents: cents('net_cents').notNull(),
  taxCents: cents('tax_cents').notNull(),
  totalCents: cents('total_cents').notNull(),
});

export const companySettings = pgTable('company_settings', {
  shopId: text('shop_id')
    .primaryKey()
    .references(() => shops.id, { onDelete: 'cascade' }),
  legalName: text('legal_name'),
  line1: text('line1'),
  line2: text('line2'),
  postalCode: text('postal_code'),
  city: text('city'),
  country: text('country'),
  vatId: text('vat_id'),
  taxNumber: text('tax_number'),
  email: text('email'),
  phone: text('phone'),
  contactName: text('contact_name'),
  bankName: text('bank_name'),
  iban: text('iban'),
  bic: text('bic'),
  registerInfo: text('register_info'),
  invoiceFooter: text('invoice_footer'),
  invoiceNumberFormat: text('invoice_number_format').notNull().default('RE-{YYYY}-{NNNNN}'),
  creditNoteNumberFormat: text('credit_note_number_format').notNull().default('GS-{YYYY}-{NNNNN}'),
  paymentTermsDays: integer('payment_terms_days').notNull().default(14),
  /** Registered for the EU One-Stop-Shop: EU consumers pay their state's VAT (docs/finance.md). */
  ossRegistered: boolean('oss_registered').notNull().default(true),
  /** When VIES cannot be reached: `charge_vat` (price as a consumer) | `accept_unverified`. */
  viesUnavailable: text('vies_unavailable').$type<'charge_vat' | 'accept_unverified'>().notNull().default('charge_vat'),
  timeZone: text('time_zone').notNull().default('Europe/Berlin'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const invoices = pgTable(
  'invoices',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    orderId: text('order_id').notNull(),
    orderNumber: text('order_number').notNull(),
    /** draft | final | partially_credited | credited (document-states.ts) */
    status: text('status').$type<InvoiceStatus>().notNull(),
    /** Assigned at finalization, gapless per shop and year. */
    number: text('number'),
    /** YYYY-MM-DD in the shop's time zone, set at finalization. */
    issueDate: text('issue_date'),
    dueDate: text('due_date'),
    /** The delivery / service date (BT-72): the day the order was paid or placed. */
    serviceDate: text('service_date').notNull(),
    /**
     * The service period (BG-14: BT-73/BT-74, "Leistungszeitraum"), YYYY-MM-DD in the shop's time
     * zone, both days inclusive: a subscription payment's billed period; null otherwise.
     */
    servicePeriodStart: text('service_period_start'),
    servicePeriodEnd: text('service_period_end'),
    currency: text('currency').notNull(),
    isBusiness: boolean('is_business').notNull(),
    buyerReference: text('buyer_reference'),
    note: text('note'),
    ...documentContent(),
    paidCents: cents('paid_cents').notNull().default(0),
    /** Sum of the final credit notes of this invoice. */
    creditedCents: cents('credited_cents').notNull().default(0),
    footer: text('footer'),
    contentHash: text('content_hash'),
    finalizedAt: ts('finalized_at'),
    sentAt: ts('sent_at'),
    sentTo: text('sent_to'),
    sendCount: integer('send_count').notNull().default(0),
    lexwareVoucherId: text('lexware_voucher_id'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'invoices_pkey', columns: [t.shopId, t.id] }),
    uniqueIndex('invoices_number_uq').on(t.shopId, t.number).where(sql`number IS NOT NULL`),
    // one open invoice per order: a fully credited invoice may be followed by a corrected one
    uniqueIndex('invoices_open_order_uq').on(t.shopId, t.orderId).where(sql`status <> 'credited'`),
    index('invoices_shop_created_idx').on(t.shopId, t.createdAt.desc(), t.id.desc()),
    index('invoices_shop_status_idx').on(t.shopId, t.status, t.createdAt.desc()),
    foreignKey({
      name: 'invoices_order_fk',
      columns: [t.shopId, t.orderId],
      foreignColumns: [orders.shopId, orders.id],
    }),
  ],
);

export const creditNotes = pgTable(
  'credit_notes',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    invoiceId: text('invoice_id').notNull(),
    orderId: text('order_id').notNull(),
    /** draft | final */
    status: text('status').$type<CreditNoteStatus>().notNull(),
    number: text('number'),
    issueDate: text('issue_date'),
    /** The credited invoice's number and date, printed on the credit note (BT-25/BT-26). */
    invoiceNumber: text('invoice_number').notNull(),
    invoiceIssueDate: text('invoice_issue_date').notNull(),
    /** The credited invoice's service period (BG-14), copied at creation; null when it has none. */
    servicePeriodStart: text('service_period_start'),
    servicePeriodEnd: text('service_period_end'),
    currency: text('currency').notNull(),
    isBusiness: boolean('is_business').notNull(),
    reason: text('reason'),
    /** Positive amounts: what is credited. */
    ...documentContent(),
    footer: text('footer'),
    contentHash: text('content_hash'),
    finalizedAt: ts('finalized_at'),
    lexwareVoucherId: text('lexware_voucher_id'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'credit_notes_pkey', columns: [t.shopId, t.id] }),
    uniqueIndex('credit_notes_number_uq').on(t.shopId, t.number).where(sql`number IS NOT NULL`),
    index('credit_notes_shop_created_idx').on(t.shopId, t.createdAt.desc(), t.id.desc()),
    index('credit_notes_invoice_idx').on(t.shopId, t.invoiceId),
    foreignKey({
      name: 'credit_notes_invoice_fk',
      columns: [t.shopId, t.invoiceId],
      foreignColumns: [invoices.shopId, invoices.id],
    }),
  ],
);

/** Credentials of accounting integrations; the key is AES-256-GCM with MASTER_KEY, never returned. */
export const accountingConnections = pgTable(
  'accounting_connections',
  {
    shopId: shopRef(),
    provider: text('provider').notNull(),
    apiKeyEncrypted: text('api_key_encrypted').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'accounting_connections_pk', columns: [t.shopId, t.provider] })],
);

/** An accounting sync's status (none is no row). */
export const ACCOUNTING_SYNC_STATUSES = ['pending', 'synced', 'failed', 'cancelled'] as const;
export type AccountingSyncStatus = (typeof ACCOUNTING_SYNC_STATUSES)[number];

/** Per order and provider: none (no row) | pending | synced | failed | cancelled. */
export const accountingSyncs = pgTable(
  'accounting_syncs',
  {
    shopId: shopRef(),
    orderId: text('order_id').notNull(),
    provider: text('provider').notNull(),
    status: text('status').$type<AccountingSyncStatus>().notNull(),
    /** The provider's id of the order's invoice voucher. */
    providerId: text('provider_id'),
    lastError: text('last_error'),
    attempts: integer('attempts').notNull().default(0),
    /** The job that currently carries this sync; any other job does nothing. */
    jobId: text('job_id'),
    syncedAt: ts('synced_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'accounting_syncs_pk', columns: [t.shopId, t.orderId, t.provider] }),
    index('accounting_syncs_status_idx').on(t.shopId, t.provider, t.status),
    foreignKey({
      name: 'accounting_syncs_order_fk',
      columns: [t.shopId, t.orderId],
      foreignColumns: [orders.shopId, orders.id],
    }).onDelete('cascade'),
  ],
);
