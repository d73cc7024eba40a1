/**
 * The read/preview routes the finance screens use (issue 31): the number a draft's finalization
 * would take, the credit note a body would create, and whether a Lexware key is stored; and that
 * a viewer reads finance but changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiToken, call, employeeToken, expectProblem, startApp, type TestApp } from '../../../test/helpers/app.js';
import { BUSINESS, draftInvoice, type FinanceShop, finalInvoice, financeShop } from './finance.fixtures.js';

let t: TestApp;
let f: FinanceShop;

beforeAll(async () => {
  t = await startApp();
  f = await financeShop(t);
});
afterAll(async () => {
  await t.close();
});

const preview = (id: string, token = f.owner) =>
  call(t.app, 'GET', `/api/admin/invoices/${id}/finalize-preview`, { token });
const creditPreview = (id: string, body: unknown, token = f.owner) =>
  call(t.app, 'POST', `/api/admin/invoices/${id}/credit-note-preview`, { token, body });

describe('GET /api/admin/invoices/:id/finalize-preview', () => {
  it('shows the number finalizing takes, which finalizing then takes', async () => {
    const draft = await draftInvoice(t, f);
    const before = await preview(draft.id);
    expect(before.statusCode, before.body).toBe(200);
    expect(before.data).toMatchObject({
      invoice_id: draft.id,
      total_cents: draft.total_cents,
      currency: 'EUR',
      can_finalize: true,
      blocker: null,
      due_date: null,
    });
    expect(before.data.number).toMatch(/^RE-\d{4}-\d{5}$/);
    // looking does not take the number
    expect((await preview(draft.id)).data.number).toBe(before.data.number);
    const done = await call(t.app, 'POST', `/api/admin/invoices/${draft.id}/finalize`, { token: f.owner });
    expect(done.data.number).toBe(before.data.number);
    expect(done.data.issue_date).toBe(before.data.issue_date);
    // the next draft would take the next number
    const next = await preview((await draftInvoice(t, f)).id);
    const seq = (n: string) => Number(n.split('-').pop());
    expect(seq(next.data.number)).toBe(seq(before.data.number) + 1);
  });

  it('names the problem finalizing would answer, without taking a number', async () => {
    const draft = await draftInvoice(t, f, { billing: BUSINESS });
    const company = (await call(t.app, 'GET', '/api/admin/settings/company', { token: f.owner })).data;
    await call(t.app, 'PUT', '/api/admin/settings/company', { token: f.owner, body: { iban: null } });
    try {
      const res = await preview(draft.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.data.can_finalize).toBe(false);
      expect(res.data.blocker).toEqual({
        code: 'seller_data_missing',
        errors: [{ path: '/settings/company/iban', message: 'is required to finalize' }],
      });
      const refused = await call(t.app, 'POST', `/api/admin/invoices/${draft.id}/finalize`, { token: f.owner });
      expectProblem(refused, 400, 'seller_data_missing');
    } finally {
      await call(t.app, 'PUT', '/api/admin/settings/company', { token: f.owner, body: { iban: company.iban } });
    }
    expect((await preview(draft.id)).data.can_finalize).toBe(true);
  });

  it('409 for a final invoice, 404 unknown; owner and admin only', async () => {
    const final = await finalInvoice(t, f);
    expectProblem(await preview(final.id), 409, 'already_final');
    expectProblem(await preview('inv_unknown'), 404, 'not_found');
    expect((await preview(final.id, await employeeToken(t.app, f.shop, 'admin'))).statusCode).toBe(409);
    expectProblem(await preview(final.id, await employeeToken(t.app, f.shop, 'viewer')), 403, 'role_denied');
    expectProblem(await preview(final.id, await apiToken(t.app, f.shop, ['finance:read'])), 403, 'token_blocked');
    expect((await call(t.app, 'GET', `/api/admin/invoices/${final.id}/finalize-preview`)).statusCode).toBe(401);
  });
});

describe('POST /api/admin/invoices/:id/credit-note-preview', () => {
  it('by lines: what the create route then writes, and what is left per line', async () => {
    const inv = await finalInvoice(t, f, { billing: BUSINESS });
    const res = await creditPreview(inv.id, { lines: [{ position: 2, quantity: 1 }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.left_before_cents).toBe(inv.total_cents);
    expect(res.data.left_after_cents).toBe(inv.total_cents - res.data.total_cents);
    expect(res.data.invoice_lines.find((l: { position: number }) => l.position === 2)).toMatchObject({
      quantity: 2,
      quantity_left: 2,
    });
    const created = await call(t.app, 'POST', `/api/admin/invoices/${inv.id}/credit-note`, {
      token: f.owner,
      body: { lines: [{ position: 2, quantity: 1 }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    for (const key of ['lines', 'tax_breakdown', 'net_cents', 'tax_cents', 'total_cents'] as const) {
      expect(created.data[key], key).toEqual(res.data[key]);
    }
    // the draft counts: one left of line 2
    const after = await creditPreview(inv.id, { amount_cents: 100 });
    expect(after.data.invoice_lines.find((l: { position: number }) => l.position === 2).quantity_left).toBe(1);
    expect(after.data.left_before_cents).toBe(inv.total_cents - created.data.total_cents);
    expect(after.data.total_cents).toBe(100);
    // nothing was written by the previews
    const list = await call(t.app, 'GET', '/api/admin/credit-notes', { token: f.owner, query: { invoice_id: inv.id } });
    expect(list.data.count).toBe(1);
  });

  it('by amount: split over the tax rates, net and tax from the server', async () => {
    const inv = await finalInvoice(t, f);
    const res = await creditPreview(inv.id, { amount_cents: 1000 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.total_cents).toBe(1000);
    expect(res.data.net_cents + res.data.tax_cents).toBe(1000);
    expect(res.data.lines.every((l: { invoice_position: number | null }) => l.invoice_position === null)).toBe(true);
  });

  it('answers the problems the create route answers, at their fields', async () => {
    const inv = await finalInvoice(t, f);
    const both = await creditPreview(inv.id, { lines: [{ position: 1, quantity: 1 }], amount_cents: 5 });
    expectProblem(both, 400, 'validation_failed');
    expect(both.data.errors[0].path).toBe('/body/amount_cents');
    const tooMuch = await creditPreview(inv.id, { amount_cents: inv.total_cents + 1 });
    expectProblem(tooMuch, 409, 'credit_exceeds_invoice');
    expect(tooMuch.data.errors[0].path).toBe('/body/amount_cents');
    const badLine = await creditPreview(inv.id, { lines: [{ position: 99, quantity: 1 }] });
    expectProblem(badLine, 400, 'validation_failed');
    expect(badLine.data.errors[0].path).toBe('/body/lines/0/position');
    expectProblem(await creditPreview(inv.id, { lines: [{ position: 1, quantity: 0 }] }), 400, 'validation_failed');
    expectProblem(await creditPreview(inv.id, { amount_cents: 'viel' }), 400, 'validation_failed');
    expectProblem(await creditPreview(inv.id, { extra: 1 }), 400, 'validation_failed');
    const draft = await draftInvoice(t, f);
    expectProblem(await creditPreview(draft.id, {}), 409, 'invoice_not_final');
    expectProblem(await creditPreview('inv_unknown', {}), 404, 'not_found');
  });

  it('owner and admin only', async () => {
    const inv = await finalInvoice(t, f);
    const admin = await employeeToken(t.app, f.shop, 'admin');
    expect((await creditPreview(inv.id, {}, admin)).statusCode).toBe(200);
    const viewer = await employeeToken(t.app, f.shop, 'viewer');
    expectProblem(await creditPreview(inv.id, {}, viewer), 403, 'role_denied');
    expectProblem(
      await creditPreview(inv.id, {}, await apiToken(t.app, f.shop, ['finance:read'])),
      403,
      'token_blocked',
    );
    expect(
      (await call(t.app, 'POST', `/api/admin/invoices/${inv.id}/credit-note-preview`, { body: {} })).statusCode,
    ).toBe(401);
  });
});

describe('GET /api/admin/credentials/lexware', () => {
  it('says whether a key is stored and since when, never the key', async () => {
    const before = await call(t.app, 'GET', '/api/admin/credentials/lexware', { token: f.owner });
    expect(before.statusCode, before.body).toBe(200);
    expect(before.data).toEqual({ provider: 'lexware', connected: false, connected_at: null, updated_at: null });
    const key = 'lex-secret-key-987654321';
    const put = await call(t.app, 'POST', '/api/admin/credentials/lexware/connect', {
      token: f.owner,
      body: { api_key: key },
    });
    expect(put.statusCode, put.body).toBe(200);
    const after = await call(t.app, 'GET', '/api/admin/credentials/lexware', { token: f.owner });
    expect(after.data).toMatchObject({ provider: 'lexware', connected: true });
    expect(after.data.connected_at).toBe(put.data.connected_at);
    expect(after.body).not.toContain('4321');
  });

  it('owner, admin and viewer read it; catalog editors and tokens are refused', async () => {
    const url = '/api/admin/credentials/lexware';
    expect((await call(t.app, 'GET', url, { token: await employeeToken(t.app, f.shop, 'viewer') })).statusCode).toBe(
      200,
    );
    const editor = await employeeToken(t.app, f.shop, 'catalog_editor');
    expectProblem(await call(t.app, 'GET', url, { token: editor }), 403, 'role_denied');
    expectProblem(
      await call(t.app, 'GET', url, { token: await apiToken(t.app, f.shop, ['finance:read']) }),
      403,
      'token_blocked',
    );
    expect((await call(t.app, 'GET', url)).statusCode).toBe(401);
  });
});

describe('GET /api/admin/invoices/:id/pdf?download=true', () => {
  it('sends the PDF as an attachment (inline without it); a bad value is 400', async () => {
    const inv = await finalInvoice(t, f, { billing: BUSINESS });
    const pdf = (query?: Record<string, string>) =>
      call(t.app, 'GET', `/api/admin/invoices/${inv.id}/pdf`, { token: f.owner, ...(query ? { query } : {}) });
    expect(String((await pdf()).headers['content-disposition'])).toMatch(/^inline;/);
    const zugferd = await pdf({ format: 'zugferd', download: 'true' });
    expect(zugferd.statusCode).toBe(200);
    expect(String(zugferd.headers['content-disposition'])).toMatch(/^attachment; filename=".+\.pdf"$/);
    expectProblem(await pdf({ download: 'ja' }), 400, 'validation_failed');
    const cn = await call(t.app, 'POST', `/api/admin/invoices/${inv.id}/credit-note`, { token: f.owner, body: {} });
    const cnPdf = await call(t.app, 'GET', `/api/admin/credit-notes/${cn.data.id}/pdf`, {
      token: f.owner,
      query: { download: 'true' },
    });
    expect(String(cnPdf.headers['content-disposition'])).toMatch(/^attachment;/);
  });
});

describe('a viewer reads finance but changes nothing', () => {
  it('lists, reads and downloads; every change is refused', async () => {
    const viewer = await employeeToken(t.app, f.shop, 'viewer');
    const inv = await finalInvoice(t, f);
    const draft = await draftInvoice(t, f);
    for (const url of [
      '/api/admin/invoices',
      `/api/admin/invoices/${inv.id}`,
      `/api/admin/invoices/${inv.id}/pdf`,
      `/api/admin/invoices/${inv.id}/einvoice-check`,
      '/api/admin/credit-notes',
      '/api/admin/settings/company',
      '/api/admin/settings/company/einvoice-readiness',
      '/api/admin/accounting/syncs?status=failed',
      `/api/admin/orders/${inv.order_id}/lexware`,
    ]) {
      expect((await call(t.app, 'GET', url, { token: viewer })).statusCode, url).toBe(200);
    }
    const changes: [string, string, unknown][] = [
      ['POST', `/api/admin/invoices/${draft.id}/finalize`, undefined],
      ['PATCH', `/api/admin/invoices/${draft.id}`, { note: 'x' }],
      ['POST', `/api/admin/invoices/${inv.id}/credit-note`, {}],
      ['POST', `/api/admin/invoices/${inv.id}/send-email`, {}],
      ['PUT', '/api/admin/settings/company', { legal_name: 'X' }],
      ['POST', '/api/admin/credentials/lexware/connect', { api_key: 'abcdefgh12' }],
      ['POST', `/api/admin/orders/${inv.order_id}/lexware-retry`, undefined],
    ];
    for (const [method, url, body] of changes) {
      expectProblem(await call(t.app, method as 'POST', url, { token: viewer, body }), 403, 'role_denied');
    }
  });
});
