/**
 * EN 16931 e-invoices through @e-invoice-eu/core: XRechnung 3.0 (UBL, or CII on request) and the
 * Factur-X/ZUGFeRD EN 16931 profile (a PDF/A-3 with the CII XML embedded). The data comes from
 * the stored final document only. Invoices use type code 380, credit notes 381 (the library
 * then writes a UBL CreditNote).
 */
import type { Invoice } from '@e-invoice-eu/core';
import { AppError, type FieldError } from '../../platform/errors.js';
import { EXEMPTION_CODE, type TaxCategory } from '../tax/index.js';
import { categoryOf, decimal, percent } from './documents.js';
import type { BuyerData, DocLine, SellerData, TaxGroup } from './finance.tables.js';

/** The frozen content of an invoice or credit note (what `invoiceContent`/`creditNoteContent` return). */
export interface DocContent {
  type: 'invoice' | 'credit_note';
  number: string | null;
  issue_date: string | null;
  due_date?: string | null;
  service_date?: string | null;
  /** BG-14 (BT-73/BT-74), present only on documents of a subscription payment: days, both inclusive. */
  service_period_start?: string;
  service_period_end?: string;
  order_number: string;
  currency: string;
  is_business: boolean;
  buyer_reference?: string | null;
  note?: string | null;
  reason?: string | null;
  seller: SellerData | null;
  buyer: BuyerData;
  lines: DocLine[];
  tax_breakdown: TaxGroup[];
  net_cents: number;
  tax_cents: number;
  total_cents: number;
  paid_cents?: number;
  footer: string | null;
  invoice_number?: string;
  invoice_issue_date?: string;
}

export type EInvoiceFormat = 'xrechnung-ubl' | 'xrechnung-cii' | 'factur-x-en16931';

const LIBRARY_FORMAT: Record<EInvoiceFormat, string> = {
  'xrechnung-ubl': 'XRECHNUNG-UBL',
  'xrechnung-cii': 'XRECHNUNG-CII',
  'factur-x-en16931': 'Factur-X-EN16931',
};

/** Why a document (or the company data) is not ready: stable codes a client can translate. */
export const EINVOICE_PROBLEM_CODES = [
  'required',
  'required_for_category_o',
  'required_for_reverse_charge',
  'category_o_alone',
  'needs_a_line',
  'must_be_positive',
  'must_not_be_negative',
  'invalid',
] as const;
export type EinvoiceProblemCode = (typeof EINVOICE_PROBLEM_CODES)[number];

/** One missing or wrong piece: the field, its JSON-pointer path, a stable code and a sentence. */
export interface EinvoiceProblem extends FieldError {
  field: string;
  message_code: EinvoiceProblemCode;
}

const MESSAGE: Record<EinvoiceProblemCode, string> = {
  required: 'is required for an EN 16931 e-invoice',
  required_for_category_o: 'is required for a document not subject to German VAT (category O)',
  required_for_reverse_charge: 'is required for reverse charge and intra-community supplies',
  category_o_alone: 'category O (not subject to VAT) cannot be mixed with other categories',
  needs_a_line: 'needs at least one line',
  must_be_positive: 'must be positive',
  must_not_be_negative: 'must not be negative',
  invalid: 'is not valid',
};

function collector(out: EinvoiceProblem[], base: string) {
  return (ok: unknown, field: string, code: EinvoiceProblemCode = 'required', message = MESSAGE[code]) => {
    if (!ok) out.push({ field, path: `${base}/${field}`, message_code: code, message });
  };
}

/**
 * What the seller's data lacks, in one place for every caller: `invoice` the fields every invoice
 * needs (§ 14 UStG: name, address, a VAT ID or a tax number), `eInvoice` those of an EN 16931
 * e-invoice (XRechnung BR-DE), `categories` the rules of the VAT categories on the document.
 * Finalization (settings' assertSellerComplete), the e-invoice check (einvoiceProblems, run by
 * the writer) and the readiness route (GET /api/admin/settings/company/einvoice-readiness) use it.
 * `base` prefixes the paths (`/seller` on a document, `/settings/company` for the settings).
 */
export function sellerProblems(
  s: Partial<SellerData> | null,
  opts: { invoice: boolean; eInvoice: boolean; categories?: ReadonlySet<TaxCategory> },
  base = '/seller',
): EinvoiceProblem[] {
  const out: EinvoiceProblem[] = [];
  const need = collector(out, base);
  if (opts.invoice || opts.eInvoice) need(s?.legal_name, 'legal_name'); // BT-27
  if (opts.invoice) need(s?.line1, 'line1'); // § 14 (4) Nr. 1 UStG
  if (opts.invoice || opts.eInvoice) {
    need(s?.postal_code, 'postal_code'); // BR-DE-4
    need(s?.city, 'city'); // BR-DE-3
    need(s?.country, 'country'); // BT-40
    need(s?.vat_id || s?.tax_number, 'vat_id'); // BR-S-02, BR-DE-16
  }
  if (opts.eInvoice) {
    need(s?.email, 'email'); // BT-34, BT-43 (BR-DE-7)
    need(s?.phone, 'phone'); // BT-42 (BR-DE-6)
    need(s?.iban, 'iban'); // BT-84 (BR-DE-23, payment means 58)
  }
  const categories = opts.categories ?? new Set<TaxCategory>();
  // BR-O-02 forbids the VAT IDs: the seller is identified by its tax number (BR-DE-16, BR-CO-26)
  if (categories.has('O')) need(s?.tax_number, 'tax_number', 'required_for_category_o');
  if (categories.has('K') || categories.has('AE')) need(s?.vat_id, 'vat_id', 'required_for_reverse_charge'); // BR-AE-02, BR-IC-02
  return out;
}

/**
 * The EN 16931 core fields and the XRechnung 3.0 (BR-DE) rules that depend on our data: checked
 * before a number is consumed, by the writer before it renders, and by the check routes
 * (GET /api/admin/invoices/:id/einvoice-check). Paths name the document field.
 */
export function einvoiceProblems(doc: DocContent, kind: 'invoice' | 'credit_note'): EinvoiceProblem[] {
  const categories = new Set(doc.lines.map((l) => categoryOf(l)));
  const errors = sellerProblems(doc.seller, { invoice: false, eInvoice: true, categories });
  const buyer = collector(errors, '/buyer');
  const top = collector(errors, '');
  const b = doc.buyer;
  buyer(b.company || b.name, 'name'); // BT-44
  buyer(b.city, 'city'); // BR-DE-8
  buyer(b.postal_code, 'postal_code'); // BR-DE-9
  buyer(b.country, 'country'); // BT-55
  buyer(b.email, 'email'); // BT-49
  top(/^[A-Z]{3}$/.test(doc.currency), 'currency'); // BT-5
  top(doc.lines.length > 0, 'lines', 'needs_a_line'); // BG-25
  doc.lines.forEach((l, i) => {
    const line = collector(errors, `/lines/${i}`);
    line(l.name, 'name'); // BT-153
    line(l.quantity > 0, 'quantity', 'must_be_positive'); // BT-129
    line(l.net_cents >= 0, 'net_cents', 'must_not_be_negative'); // BT-131
  });
  if (kind === 'credit_note') top(doc.invoice_number, 'invoice_number'); // BT-25
  // BR-O-11..14: a document "not subject to VAT" holds no other category
  if (categories.has('O')) top(categories.size === 1, 'lines', 'category_o_alone');
  if (categories.has('K') || categories.has('AE')) buyer(b.vat_id, 'vat_id', 'required_for_reverse_charge'); // BT-48
  if (categories.has('K')) buyer(b.delivery_address?.country, 'delivery_address'); // BR-IC-12 (BT-80)
  return errors;
}

/** Refuses to finalize a business document that an EN 16931 e-invoice could not be made of (400). */
export function assertEinvoiceReady(doc: DocContent): void {
  const problems = einvoiceProblems(doc, doc.type);
  if (problems.length === 0) return;
  throw new AppError(
    'einvoice_data_missing',
    `An EN 16931 ${doc.type === 'invoice' ? 'e-invoice' : 'credit note'} needs ${problems.map((p) => p.path).join(', ')}`,
    problems.map((p) => ({ path: p.path, message: p.message })),
  );
}

const party = (name: string) => name;

/**
 * BT-151 of a line (`group` false) or BT-118 of a VAT breakdown group with, for a 0 % category,
 * its exemption reason (BT-120/121).
 */
function taxCategory(x: Pick<DocLine, 'tax_rate' | 'tax_category' | 'tax_exemption_reason'>, withReason: boolean) {
  const id = categoryOf(x);
  const exempt = id !== 'S' && id !== 'Z';
  return {
    'cbc:ID': id,
    // a line "not subject to VAT" has no rate (BR-O-05); its VAT breakdown states 0 (BR-DE-14)
    ...(id === 'O' && !withReason ? {} : { 'cbc:Percent': percent(x.tax_rate) }),
    ...(withReason && exempt
      ? {
          'cbc:TaxExemptionReasonCode': EXEMPTION_CODE[id],
          'cbc:TaxExemptionReason': x.tax_exemption_reason || EXEMPTION_CODE[id],
        }
      : {}),
    'cac:TaxScheme': { 'cbc:ID': 'VAT' },
  };
}

function lineOf(l: DocLine, currency: string): Invoice['ubl:Invoice']['cac:InvoiceLine'][number] {
  // price × quantity / base quantity = line net exactly: a whole-cent unit price when it divides,
  // else the line net as the price for the whole quantity (BT-149 base quantity)
  const exact = l.net_cents % l.quantity === 0;
  return {
    'cbc:ID': String(l.position),
    'cbc:InvoicedQuantity': String(l.quantity),
    'cbc:InvoicedQuantity@unitCode': 'C62',
    'cbc:LineExtensionAmount': decimal(l.net_cents),
    'cbc:LineExtensionAmount@currencyID': currency as never,
    'cac:Item': {
      'cbc:Name': l.name,
      ...(l.sku ? { 'cac:SellersItemIdentification': { 'cbc:ID': l.sku } } : {}),
      'cac:ClassifiedTaxCategory': taxCategory(l, false) as never,
    },
    'cac:Price': exact
      ? { 'cbc:PriceAmount': decimal(l.net_cents / l.quantity), 'cbc:PriceAmount@currencyID': currency as never }
      : {
          'cbc:PriceAmount': decimal(l.net_cents),
          'cbc:PriceAmount@currencyID': currency as never,
          'cbc:BaseQuantity': String(l.quantity),
          'cbc:BaseQuantity@unitCode': 'C62',
        },
  };
}

/** The service period (BG-14) of a document that has one. */
export function servicePeriodOf(doc: DocContent): { start: string; end: string } | null {
  return doc.service_period_start && doc.service_period_end
    ? { start: doc.service_period_start, end: doc.service_period_end }
    : null;
}

/** A document with lines "not subject to VAT" (category O). */
const notSubjectToVat = (doc: DocContent) => doc.lines.some((l) => categoryOf(l) === 'O');

/** The document in the library's internal format (UBL semantics, EN 16931 business terms). */
export function toInternal(doc: DocContent): Invoice {
  const s = doc.seller as SellerData;
  const b = doc.buyer;
  const cur = doc.currency as never;
  const paid = doc.type === 'invoice' ? (doc.paid_cents ?? 0) : 0;
  // one IncludedNote (CII) may hold one Content only (Factur-X XSD, CII-SR-030): the texts are joined
  const notes = [doc.note, doc.reason, doc.footer].filter((n): n is string => Boolean(n));
  const note = notes.join('\n\n');
  // "not subject to VAT" (O) documents carry neither VAT ID (BR-O-02); the tax number identifies the seller
  const notSubject = notSubjectToVat(doc);
  const buyerVatId = notSubject ? null : b.vat_id;
  const ship = b.delivery_address ?? null;
  const period = servicePeriodOf(doc);
  const deliveryDate = period ? null : doc.service_date;
  const sellerTax: { 'cbc:CompanyID': string; 'cac:TaxScheme': { 'cbc:ID': string } }[] = [];
  if (s.vat_id && !notSubject) sellerTax.push({ 'cbc:CompanyID': s.vat_id, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } });
  if (s.tax_number) sellerTax.push({ 'cbc:CompanyID': s.tax_number, 'cac:TaxScheme': { 'cbc:ID': 'FC' } });
  const invoice: Invoice = {
    'ubl:Invoice': {
      'cbc:ID': doc.number as string,
      'cbc:IssueDate': doc.issue_date as string,
      ...(doc.type === 'invoice' && doc.due_date ? { 'cbc:DueDate': doc.due_date } : {}),
      'cbc:InvoiceTypeCode': doc.type === 'invoice' ? '380' : '381',
      ...(note ? { 'cbc:Note': [note] } : {}),
      'cbc:DocumentCurrencyCode': cur,
      // BT-10 is mandatory in XRechnung; without a Leitweg-ID the order number identifies the purchase
      'cbc:BuyerReference': doc.buyer_reference || doc.order_number,
      // BG-14: a subscription payment's billed period is the time of supply (§ 14 (4) Nr. 6 UStG)
      ...(period ? { 'cac:InvoicePeriod': { 'cbc:StartDate': period.start, 'cbc:EndDate': period.end } } : {}),
      'cac:OrderReference': { 'cbc:ID': doc.order_number },
      ...(doc.type === 'credit_note' && doc.invoice_number
        ? {
            'cac:BillingReference': [
              {
                'cac:InvoiceDocumentReference': {
                  'cbc:ID': doc.invoice_number,
                  ...(doc.invoice_issue_date ? { 'cbc:IssueDate': doc.invoice_issue_date } : {}),
                },
              },
            ],
          }
        : {}),
      'cac:AccountingSupplierParty': {
        'cac:Party': {
          'cbc:EndpointID': s.email as string,
          'cbc:EndpointID@schemeID': 'EM',
          // without the VAT ID (BR-O-02) the tax number identifies the seller (BT-29, BR-CO-26)
          ...(notSubject && s.tax_number ? { 'cac:PartyIdentification': [{ 'cbc:ID': s.tax_number }] } : {}),
          'cac:PartyName': { 'cbc:Name': party(s.legal_name) },
          'cac:PostalAddress': {
            'cbc:StreetName': s.line1,
            ...(s.line2 ? { 'cbc:AdditionalStreetName': s.line2 } : {}),
            'cbc:CityName': s.city,
            'cbc:PostalZone': s.postal_code,
            'cac:Country': { 'cbc:IdentificationCode': s.country as never },
          },
          'cac:PartyTaxScheme': sellerTax as never,
          'cac:PartyLegalEntity': {
            'cbc:RegistrationName': s.legal_name,
            ...(s.register_info ? { 'cbc:CompanyLegalForm': s.register_info } : {}),
          },
          'cac:Contact': {
            'cbc:Name': s.contact_name || s.legal_name,
            'cbc:Telephone': s.phone as string,
            'cbc:ElectronicMail': s.email as string,
          },
        },
      },
      'cac:AccountingCustomerParty': {
        'cac:Party': {
          'cbc:EndpointID': b.email,
          'cbc:EndpointID@schemeID': 'EM',
          ...(b.company && b.name ? { 'cac:PartyName': { 'cbc:Name': b.name } } : {}),
          'cac:PostalAddress': {
            ...(b.line1 ? { 'cbc:StreetName': b.line1 } : {}),
            ...(b.line2 ? { 'cbc:AdditionalStreetName': b.line2 } : {}),
            'cbc:CityName': b.city,
            'cbc:PostalZone': b.postal_code,
            'cac:Country': { 'cbc:IdentificationCode': b.country as never },
          },
          ...(buyerVatId
            ? { 'cac:PartyTaxScheme': { 'cbc:CompanyID': buyerVatId, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } } }
            : {}),
          'cac:PartyLegalEntity': { 'cbc:RegistrationName': b.company || b.name },
          'cac:Contact': { 'cbc:ElectronicMail': b.email },
        },
      },
      // BT-72 (CII needs ApplicableHeaderTradeDelivery, which this fills; patchCii adds it empty
      // otherwise) and BG-15, the deliver-to address of shipped goods (BT-80 for intra-community
      // supplies, BR-IC-12). With a service period (BG-14) the payment day is no delivery date: BT-72
      // would say the service was completed on the period's first day, so it is left out.
      ...(deliveryDate || ship
        ? {
            'cac:Delivery': {
              ...(deliveryDate ? { 'cbc:ActualDeliveryDate': deliveryDate } : {}),
              ...(ship
                ? {
                    'cac:DeliveryLocation': {
                      'cac:Address': {
                        ...(ship.line1 ? { 'cbc:StreetName': ship.line1 } : {}),
                        'cbc:CityName': ship.city,
                        'cbc:PostalZone': ship.postal_code,
                        'cac:Country': { 'cbc:IdentificationCode': ship.country as never },
                      },
                    },
                  }
                : {}),
            },
          }
        : {}),
      'cac:PaymentMeans': [
        {
          'cbc:PaymentMeansCode': '58',
          'cbc:PaymentMeansCode@name': 'SEPA credit transfer',
          'cbc:PaymentID': doc.number as string,
          'cac:PayeeFinancialAccount': {
            'cbc:ID': s.iban as string,
            'cbc:Name': s.legal_name,
            ...(s.bic ? { 'cac:FinancialInstitutionBranch': { 'cbc:ID': s.bic } } : {}),
          },
        },
      ],
      // BT-20 on every document (BR-CO-25: needed whenever the amount due is positive, credit notes too)
      'cac:PaymentTerms': {
        'cbc:Note':
          doc.type === 'credit_note'
            ? `Der Betrag von ${decimal(doc.total_cents)} ${doc.currency} wird Ihnen erstattet.`
            : paid >= doc.total_cents
              ? 'Bereits bezahlt.'
              : `Zahlbar ohne Abzug bis ${doc.due_date ?? doc.issue_date}.`,
      },
      'cac:TaxTotal': [
        {
          'cbc:TaxAmount': decimal(doc.tax_cents),
          'cbc:TaxAmount@currencyID': cur,
          'cac:TaxSubtotal': doc.tax_breakdown.map((g) => ({
            'cbc:TaxableAmount': decimal(g.net_cents),
            'cbc:TaxableAmount@currencyID': cur,
            'cbc:TaxAmount': decimal(g.tax_cents),
            'cbc:TaxAmount@currencyID': cur,
            'cac:TaxCategory': taxCategory(g, true) as never,
          })),
        },
      ],
      'cac:LegalMonetaryTotal': {
        'cbc:LineExtensionAmount': decimal(doc.net_cents),
        'cbc:LineExtensionAmount@currencyID': cur,
        'cbc:TaxExclusiveAmount': decimal(doc.net_cents),
        'cbc:TaxExclusiveAmount@currencyID': cur,
        'cbc:TaxInclusiveAmount': decimal(doc.total_cents),
        'cbc:TaxInclusiveAmount@currencyID': cur,
        ...(paid > 0 ? { 'cbc:PrepaidAmount': decimal(paid), 'cbc:PrepaidAmount@currencyID': cur } : {}),
        'cbc:PayableAmount': decimal(doc.total_cents - paid),
        'cbc:PayableAmount@currencyID': cur,
      },
      'cac:InvoiceLine': doc.lines.map((l) => lineOf(l, doc.currency)) as never,
    },
  };
  return invoice;
}

const silent = { log() {}, warn() {}, error() {} };

export class EInvoiceError extends Error {
  override name = 'EInvoiceError';
}

type CiiNode = Record<string, unknown>;

/**
 * Puts `key` into a CII element after the children that precede it in the schema (`before`, in
 * schema order), keeping the element order the XSD demands; the library renders keys in order.
 */
function insertInOrder(parent: CiiNode, key: string, value: unknown, before: string[]): void {
  if (parent[key] !== undefined) return;
  const entries = Object.entries(parent);
  const base = (k: string) => k.split('@')[0] as string;
  let at = 0;
  entries.forEach(([k], i) => {
    if (before.includes(base(k))) at = i + 1;
  });
  entries.splice(at, 0, [key, value]);
  for (const k of Object.keys(parent)) delete parent[k];
  Object.assign(parent, Object.fromEntries(entries));
}

/**
 * The thin post-processing step for what @e-invoice-eu/core 2.3.4 does not write into CII (and
 * so into the Factur-X XML): BT-13 (BuyerOrderReferencedDocument, masked out of its Factur-X
 * EN 16931 mapping) and BT-25/26 (InvoiceReferencedDocument; its mapping reads the UBL
 * BillingReference one level too high); and an empty ApplicableHeaderTradeDelivery, which CII
 * requires, when the document has neither BT-72 nor BG-15 (a subscription payment's invoice states
 * its service period instead). Runs on the library's CII tree before it is rendered.
 */
export function patchCii(cii: CiiNode, doc: DocContent): void {
  const tx = (cii['rsm:CrossIndustryInvoice'] as CiiNode | undefined)?.['rsm:SupplyChainTradeTransaction'] as
    | CiiNode
    | undefined;
  if (!tx) return;
  // mandatory in CII (CII D16B and Factur-X XSD), also without BT-72 and BG-15 (a service period)
  insertInOrder(tx, 'ram:ApplicableHeaderTradeDelivery', {}, [
    'ram:IncludedSupplyChainTradeLineItem',
    'ram:ApplicableHeaderTradeAgreement',
  ]);
  const agreement = tx['ram:ApplicableHeaderTradeAgreement'] as CiiNode | undefined;
  const seller = agreement?.['ram:SellerTradeParty'] as CiiNode | undefined;
  if (seller && notSubjectToVat(doc) && doc.seller?.tax_number) {
    // BT-29 (the library maps the seller's PartyIdentification to UBL only): see toInternal
    insertInOrder(seller, 'ram:ID', doc.seller.tax_number, []);
  }
  if (agreement && doc.order_number) {
    insertInOrder(agreement, 'ram:BuyerOrderReferencedDocument', { 'ram:IssuerAssignedID': doc.order_number }, [
      'ram:BuyerReference',
      'ram:SellerTradeParty',
      'ram:BuyerTradeParty',
      'ram:SalesAgentTradeParty',
      'ram:BuyerTaxRepresentativeTradeParty',
      'ram:SellerTaxRepresentativeTradeParty',
      'ram:ProductEndUserTradeParty',
      'ram:ApplicableTradeDeliveryTerms',
      'ram:SellerOrderReferencedDocument',
    ]);
  }
  const settlement = tx['ram:ApplicableHeaderTradeSettlement'] as CiiNode | undefined;
  if (settlement && doc.type === 'credit_note' && doc.invoice_number) {
    insertInOrder(
      settlement,
      'ram:InvoiceReferencedDocument',
      {
        'ram:IssuerAssignedID': doc.invoice_number,
        ...(doc.invoice_issue_date
          ? {
              'ram:FormattedIssueDateTime': {
                'qdt:DateTimeString': doc.invoice_issue_date.replaceAll('-', ''),
                'qdt:DateTimeString@format': '102',
              },
            }
          : {}),
      },
      [
        'ram:CreditorReferenceID',
        'ram:PaymentReference',
        'ram:TaxCurrencyCode',
        'ram:InvoiceCurrencyCode',
        'ram:InvoiceIssuerReference',
        'ram:InvoicerTradeParty',
        'ram:InvoiceeTradeParty',
        'ram:PayeeTradeParty',
        'ram:PayerTradeParty',
        'ram:TaxApplicableTradeCurrencyExchange',
        'ram:SpecifiedTradeSettlementPaymentMeans',
        'ram:ApplicableTradeTax',
        'ram:BillingSpecifiedPeriod',
        'ram:SpecifiedTradeAllowanceCharge',
        'ram:SubtotalCalculatedTradeTax',
        'ram:SpecifiedLogisticsServiceCharge',
        'ram:SpecifiedTradePaymentTerms',
        'ram:SpecifiedTradeSettlementHeaderMonetarySummation',
        'ram:SpecifiedFinancialAdjustment',
      ],
    );
  }
}

/** The library's format classes, by lower-case name (what its factory looks up). */
type FormatClass = new (...args: never[]) => { postProcess?: (cii: CiiNode) => void };

async function generate(doc: DocContent, format: EInvoiceFormat, pdf?: Buffer): Promise<string | Uint8Array> {
  // the writer checks what finalization checked: a document it cannot make valid is refused (400)
  assertEinvoiceReady(doc);
  // loaded on first use: the library is large and most processes never render an e-invoice
  const { InvoiceService } = await import('@e-invoice-eu/core');
  const service = new InvoiceService(silent);
  if (format !== 'xrechnung-ubl') {
    // this service's own factory gets a subclass of the CII format with the post-processing step
    const factory = (
      service as unknown as { formatFactoryService: { formatServicesLookup: Record<string, FormatClass> } }
    ).formatFactoryService;
    const name = LIBRARY_FORMAT[format].toLowerCase();
    const Base = factory.formatServicesLookup[name] as FormatClass;
    factory.formatServicesLookup[name] = class extends (Base as new (...args: never[]) => CiiNode) {
      postProcess(cii: CiiNode) {
        (Base.prototype as { postProcess(c: CiiNode): void }).postProcess.call(this, cii);
        patchCii(cii, doc);
      }
    } as unknown as FormatClass;
  }
  try {
    return await service.generate(toInternal(doc), {
      format: LIBRARY_FORMAT[format],
      lang: 'de-de',
      noWarnings: true,
      ...(pdf
        ? {
            pdf: {
              buffer: new Uint8Array(pdf),
              filename: `${doc.number}.pdf`,
              mimetype: 'application/pdf',
            },
          }
        : {}),
    });
  } catch (err) {
    const details = (err as { errors?: unknown }).errors;
    throw new EInvoiceError(
      `e-invoice generation failed: ${err instanceof Error ? err.message : String(err)}${details ? ` ${JSON.stringify(details).slice(0, 1000)}` : ''}`,
    );
  }
}

export async function renderXml(doc: DocContent, format: 'xrechnung-ubl' | 'xrechnung-cii'): Promise<string> {
  return String(await generate(doc, format));
}

/** The Factur-X/ZUGFeRD EN 16931 PDF: the visual PDF with factur-x.xml embedded, as PDF/A-3. */
export async function renderFacturX(doc: DocContent, pdf: Buffer): Promise<Buffer> {
  return Buffer.from(await generate(doc, 'factur-x-en16931', pdf));
}
