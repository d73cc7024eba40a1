/**
 * E-invoice readiness (issue 31, docs/finance.md): what the company data still lacks, and whether
 * an invoice's e-invoice would pass, from the same checks finalization and the e-invoice writer
 * run (einvoice.ts `sellerProblems` / `einvoiceProblems`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiToken, call, employeeToken, expectProblem, startApp, type TestApp } from '../../../test/helpers/app.js';
import { BUSINESS, draftInvoice, type FinanceShop, financeShop, SELLER } from './finance.fixtures.js';

let t: TestApp;
let f: FinanceShop;

const readiness = (token = f.owner) => call(t.app, 'GET', '/api/admin/settings/company/einvoice-readiness', { token });
const check = (id: string, token = f.owner) =>
  call(t.app, 'GET', `/api/admin/invoices/${id}/einvoice-check`, { token });

beforeAll(async () => {
  t = await startApp();
  f = await financeShop(t, { company: false });
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/admin/settings/company/einvoice-readiness', () => {
  it('lists what the company data lacks, then ready once it is complete', async () => {
    const empty = await readiness();
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.data.ready).toBe(false);
    expect(empty.data.missing.map((m: { field: string }) => m.field)).toEqual([
      'legal_name',
      'line1',
      'postal_code',
      'city',
      'country',
      'vat_id',
      'email',
      'phone',
      'iban',
    ]);
    expect(empty.data.missing[8]).toEqual({ field: 'iban', path: '/settings/company/iban', message_code: 'required' });
    expect(empty.data.conditional).toEqual([
      { field: 'tax_number', path: '/settings/company/tax_number', message_code: 'required_for_category_o' },
      { field: 'vat_id', path: '/settings/company/vat_id', message_code: 'required_for_reverse_charge' },
    ]);
    // the settings' own lists come from the same function
    const settings = await call(t.app, 'GET', '/api/admin/settings/company', { token: f.owner });
    expect(settings.data.missing_for_e_invoices).toEqual(empty.data.missing.map((m: { field: string }) => m.field));

    const { tax_number: _, ...withoutTaxNumber } = SELLER;
    const put = await call(t.app, 'PUT', '/api/admin/settings/company', { token: f.owner, body: withoutTaxNumber });
    expect(put.statusCode, put.body).toBe(200);
    const almost = await readiness();
    expect(almost.data).toEqual({
      ready: true,
      missing: [],
      conditional: [
        { field: 'tax_number', path: '/settings/company/tax_number', message_code: 'required_for_category_o' },
      ],
    });
    await call(t.app, 'PUT', '/api/admin/settings/company', {
      token: f.owner,
      body: { tax_number: SELLER.tax_number },
    });
    expect((await readiness()).data).toEqual({ ready: true, missing: [], conditional: [] });
  });

  it('owner, admin and viewer read it; catalog editors and tokens are refused', async () => {
    expect((await readiness(await employeeToken(t.app, f.shop, 'admin'))).statusCode).toBe(200);
    expect((await readiness(await employeeToken(t.app, f.shop, 'viewer'))).statusCode).toBe(200);
    expectProblem(await readiness(await employeeToken(t.app, f.shop, 'catalog_editor')), 403, 'role_denied');
    expectProblem(await readiness(await apiToken(t.app, f.shop, ['finance:read'])), 403, 'token_blocked');
    expect((await call(t.app, 'GET', '/api/admin/settings/company/einvoice-readiness')).statusCode).toBe(401);
  });
});

describe('GET /api/admin/invoices/:id/einvoice-check', () => {
  it('a draft as it would be finalized now: the company data, the buyer, the e-invoice rules', async () => {
    await call(t.app, 'PUT', '/api/admin/settings/company', { token: f.owner, body: { phone: null } });
    const draft = await draftInvoice(
      t,
      f,
      { billing: { ...BUSINESS, city: 'Berlin' }, items: [{ product_id: f.products.course, quantity: 1 }] },
      { is_business: true },
    );
    const res = await check(draft.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({ invoice_id: draft.id, status: 'draft', applicable: true, would_pass: false });
    expect(res.data.problems).toEqual([
      {
        field: 'phone',
        path: '/seller/phone',
        message_code: 'required',
        message: 'is required for an EN 16931 e-invoice',
      },
    ]);
    // what the check names is what finalization refuses
    const refused = await call(t.app, 'POST', `/api/admin/invoices/${draft.id}/finalize`, { token: f.owner });
    expect(refused.statusCode).toBe(400);
    expect(refused.data.errors.map((e: { path: string }) => e.path)).toEqual(['/settings/company/phone']);

    await call(t.app, 'PUT', '/api/admin/settings/company', { token: f.owner, body: { phone: SELLER.phone } });
    expect((await check(draft.id)).data).toMatchObject({ would_pass: true, problems: [] });
    const final = await call(t.app, 'POST', `/api/admin/invoices/${draft.id}/finalize`, { token: f.owner });
    expect(final.statusCode, final.body).toBe(200);
    // a final invoice is checked as frozen: a later settings change does not matter
    await call(t.app, 'PUT', '/api/admin/settings/company', { token: f.owner, body: { iban: null } });
    expect((await check(draft.id)).data).toMatchObject({ status: 'final', would_pass: true, problems: [] });
    await call(t.app, 'PUT', '/api/admin/settings/company', { token: f.owner, body: { iban: SELLER.iban } });
  });

  it('a consumer invoice gets no e-invoice; its problems are those it would have as a business invoice', async () => {
    const draft = await draftInvoice(t, f, { items: [{ product_id: f.products.course, quantity: 1 }] });
    const res = await check(draft.id);
    expect(res.data).toMatchObject({ applicable: false, would_pass: false, problems: [] });
  });

  it('the buyer’s fields: what finalization needs and what the e-invoice needs, once each', async () => {
    const draft = await draftInvoice(
      t,
      f,
      { billing: { ...BUSINESS }, items: [{ product_id: f.products.course, quantity: 1 }] },
      { is_business: true },
    );
    const patched = await call(t.app, 'PATCH', `/api/admin/invoices/${draft.id}`, {
      token: f.owner,
      body: { buyer: { city: '', postal_code: '' } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const res = await check(draft.id);
    expect(res.data.would_pass).toBe(false);
    expect(res.data.problems.map((p: { path: string; message_code: string }) => `${p.path}:${p.message_code}`)).toEqual(
      ['/buyer/postal_code:required', '/buyer/city:required'],
    );
    const refused = await call(t.app, 'POST', `/api/admin/invoices/${draft.id}/finalize`, { token: f.owner });
    expectProblem(refused, 400, 'buyer_data_missing');
  });

  it('404 for unknown invoices; owner, admin and viewer only', async () => {
    expectProblem(await check('inv_unknown'), 404, 'not_found');
    expectProblem(await check('inv_unknown', await employeeToken(t.app, f.shop, 'viewer')), 404, 'not_found');
    expectProblem(await check('inv_unknown', await employeeToken(t.app, f.shop, 'catalog_editor')), 403, 'role_denied');
    expectProblem(await check('inv_unknown', await apiToken(t.app, f.shop, ['finance:read'])), 403, 'token_blocked');
    expect((await call(t.app, 'GET', '/api/admin/invoices/inv_unknown/einvoice-check')).statusCode).toBe(401);
  });
});
