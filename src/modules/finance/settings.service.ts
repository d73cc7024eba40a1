/** The seller's company data (GET/PUT /api/admin/settings/company) and what a document needs of it. */

import type { Static } from '@sinclair/typebox';
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso } from '../../platform/dates.js';
import { one } from '../../platform/db/query.js';
import { AppError, type FieldError } from '../../platform/errors.js';
import type { TaxCategory } from '../tax/index.js';
import { type EinvoiceProblem, sellerProblems } from './einvoice.js';
import type { CompanySettingsPut } from './finance.schemas.js';
import { companySettings, type SellerData } from './finance.tables.js';
import { formatProblem, isTimeZone } from './numbering.js';

export type SettingsRow = typeof companySettings.$inferSelect;

const DEFAULTS = {
  invoiceNumberFormat: 'RE-{YYYY}-{NNNNN}',
  creditNoteNumberFormat: 'GS-{YYYY}-{NNNNN}',
  paymentTermsDays: 14,
  timeZone: 'Europe/Berlin',
  ossRegistered: true,
  viesUnavailable: 'charge_vat' as const,
};

export async function loadSettings(ctx: Pick<Ctx, 'db' | 'shopId'>): Promise<SettingsRow> {
  const { shopId } = ctx;
  const [row] = await ctx.db.select().from(companySettings).where(eq(companySettings.shopId, shopId));
  if (row) return row;
  const epoch = new Date(0);
  return {
    shopId,
    legalName: null,
    line1: null,
    line2: null,
    postalCode: null,
    city: null,
    country: null,
    vatId: null,
    taxNumber: null,
    email: null,
    phone: null,
    contactName: null,
    bankName: null,
    iban: null,
    bic: null,
    registerInfo: null,
    invoiceFooter: null,
    ...DEFAULTS,
    createdAt: epoch,
    updatedAt: epoch,
  };
}

/**
 * Fields every invoice needs (§14 UStG): name, address, and a VAT ID or a tax number; with
 * `eInvoice` also those of an EN 16931 e-invoice to a business. The one check is einvoice.ts's
 * `sellerProblems`.
 */
export function missingSellerData(s: SettingsRow, eInvoice: boolean): string[] {
  return sellerProblems(sellerSnapshot(s), { invoice: true, eInvoice }).map((p) => p.field);
}

/**
 * GET /api/admin/settings/company/einvoice-readiness: what a valid e-invoice still lacks of the
 * company data (`missing`), and what documents of some VAT categories need besides
 * (`conditional`: a tax number for category O, a VAT ID for reverse charge), from the same
 * function finalization and the e-invoice writer use.
 */
export function einvoiceReadiness(s: SettingsRow) {
  const seller = sellerSnapshot(s);
  const strip = ({ field, path, message_code }: EinvoiceProblem) => ({ field, path, message_code });
  const missing = sellerProblems(seller, { invoice: true, eInvoice: true }, '/settings/company');
  const seen = new Set(missing.map((p) => `${p.field}|${p.message_code}`));
  const conditional = sellerProblems(
    seller,
    { invoice: false, eInvoice: false, categories: new Set<TaxCategory>(['O', 'AE']) },
    '/settings/company',
  ).filter((p) => !seen.has(`${p.field}|${p.message_code}`));
  return { ready: missing.length === 0, missing: missing.map(strip), conditional: conditional.map(strip) };
}

export function assertSellerComplete(s: SettingsRow, eInvoice: boolean): void {
  const missing = missingSellerData(s, eInvoice);
  if (missing.length === 0) return;
  const named = missing.map((m) => (m === 'vat_id' ? 'vat_id or tax_number' : m));
  throw new AppError(
    'seller_data_missing',
    `The company settings lack ${named.join(', ')}${eInvoice ? ' (needed for an EN 16931 e-invoice to a business)' : ''}; set them with PUT /api/admin/settings/company`,
    missing.map((m) => ({ path: `/settings/company/${m}`, message: 'is required to finalize' })),
  );
}

/** The seller's tax IDs, contact and bank as documents and the settings route name them (in this order). */
function taxContactBank(s: SettingsRow) {
  return {
    vat_id: s.vatId,
    tax_number: s.taxNumber,
    email: s.email,
    phone: s.phone,
    contact_name: s.contactName,
    bank_name: s.bankName,
    iban: s.iban,
    bic: s.bic,
    register_info: s.registerInfo,
  };
}

export function sellerSnapshot(s: SettingsRow): SellerData {
  return {
    legal_name: s.legalName ?? '',
    line1: s.line1 ?? '',
    line2: s.line2,
    postal_code: s.postalCode ?? '',
    city: s.city ?? '',
    country: s.country ?? '',
    ...taxContactBank(s),
  };
}

export function settingsOut(s: SettingsRow) {
  return {
    legal_name: s.legalName,
    line1: s.line1,
    line2: s.line2,
    postal_code: s.postalCode,
    city: s.city,
    country: s.country,
    ...taxContactBank(s),
    invoice_footer: s.invoiceFooter,
    invoice_number_format: s.invoiceNumberFormat,
    credit_note_number_format: s.creditNoteNumberFormat,
    payment_terms_days: s.paymentTermsDays,
    time_zone: s.timeZone,
    oss_registered: s.ossRegistered,
    vies_unavailable: s.viesUnavailable,
    missing_for_invoices: missingSellerData(s, false),
    missing_for_e_invoices: missingSellerData(s, true),
    updated_at: s.updatedAt.getTime() === 0 ? null : iso(s.updatedAt),
  };
}

/** ISO 13616 check: country, check digits, BBAN; mod 97 of the rearranged number is 1. */
export function validIban(raw: string): boolean {
  const iban = raw.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const ch of digits) rest = (rest * 10 + Number(ch)) % 97;
  return rest === 1;
}

/** The body of PUT /api/admin/settings/company. */
export type SettingsPut = Static<typeof CompanySettingsPut>;

const COLUMN: Record<keyof SettingsPut, keyof SettingsRow> = {
  legal_name: 'legalName',
  line1: 'line1',
  line2: 'line2',
  postal_code: 'postalCode',
  city: 'city',
  country: 'country',
  vat_id: 'vatId',
  tax_number: 'taxNumber',
  email: 'email',
  phone: 'phone',
  contact_name: 'contactName',
  bank_name: 'bankName',
  iban: 'iban',
  bic: 'bic',
  register_info: 'registerInfo',
  invoice_footer: 'invoiceFooter',
  invoice_number_format: 'invoiceNumberFormat',
  credit_note_number_format: 'creditNoteNumberFormat',
  payment_terms_days: 'paymentTermsDays',
  time_zone: 'timeZone',
  oss_registered: 'ossRegistered',
  vies_unavailable: 'viesUnavailable',
};

/** Sets the given fields (omitted fields keep their value, null clears one). */
export async function putSettings(ctx: Ctx, body: SettingsPut): Promise<SettingsRow> {
  const errors: FieldError[] = [];
  const b = { ...body };
  if (b.iban) {
    b.iban = b.iban.replace(/\s+/g, '').toUpperCase();
    if (!validIban(b.iban)) errors.push({ path: '/body/iban', message: 'is not a valid IBAN (checksum)' });
  }
  if (b.bic) b.bic = b.bic.toUpperCase();
  if (b.vat_id) b.vat_id = b.vat_id.replace(/\s+/g, '').toUpperCase();
  for (const key of ['invoice_number_format', 'credit_note_number_format'] as const) {
    const f = b[key];
    const problem = f === undefined ? null : formatProblem(f);
    if (problem) errors.push({ path: `/body/${key}`, message: problem });
  }
  if (b.invoice_number_format && b.invoice_number_format === b.credit_note_number_format) {
    errors.push({ path: '/body/credit_note_number_format', message: 'must differ from the invoice number format' });
  }
  if (b.time_zone !== undefined && !isTimeZone(b.time_zone)) {
    errors.push({ path: '/body/time_zone', message: 'is not an IANA time zone' });
  }
  if (errors.length > 0) {
    throw new AppError('validation_failed', `${errors[0]?.path} ${errors[0]?.message}`, errors);
  }
  const now = ctx.clock.now();
  const set: Record<string, unknown> = { updatedAt: now };
  for (const [key, value] of Object.entries(b)) {
    if (value === undefined) continue;
    set[COLUMN[key as keyof SettingsPut]] = typeof value === 'string' ? value.trim() || null : value;
  }
  const current = await loadSettings(ctx);
  const merged = { ...current, ...set } as SettingsRow;
  if (merged.invoiceNumberFormat === merged.creditNoteNumberFormat) {
    throw new AppError('validation_failed', 'Invoices and credit notes need different number formats', [
      { path: '/body/credit_note_number_format', message: 'must differ from the invoice number format' },
    ]);
  }
  return one(
    await ctx.db
      .insert(companySettings)
      .values({ ...merged, shopId: ctx.shopId, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: companySettings.shopId, set })
      .returning(),
  );
}
