/**
 * The customer's invoices in the account area (customer-invoices.ts): the final invoices of the
 * account's own orders and their PDFs; drafts and other customers' invoices are not listed and 404;
 * every other credential is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, customerToken, expectProblem, STORE_ORIGIN, startApp, type TestApp } from '../../../test/helpers/app.js';
import { draftInvoice, type FinanceShop, finalInvoice, financeShop } from './finance.fixtures.js';

let t: TestApp;
let f: FinanceShop;
let mine: { id: string; order_id: string; number: string; total_cents: number };
let draft: { id: string; order_id: string };
let theirs: { id: string; order_id: string };
let session: string;
let otherSession: string;
const EMAIL = 'rechnungskundin@mail.test';
const OTHER = 'anderer@mail.test';

beforeAll(async () => {
  t = await startApp();
  f = await financeShop(t);
  // guest orders of the e-mail, claimed by the account at verification
  mine = await finalInvoice(t, f, { email: EMAIL });
  draft = await draftInvoice(t, f, { email: EMAIL });
  theirs = await finalInvoice(t, f, { email: OTHER });
  session = await customerToken(t.app, f.shop, { email: EMAIL });
  otherSession = await customerToken(t.app, f.shop, { email: OTHER });
}, 120_000);
afterAll(() => t.close());

const list = (token: string, query?: Record<string, string>) =>
  call(t.app, 'GET', '/api/customer/invoices', { token, ...(query ? { query } : {}) });
const pdf = (token: string, id: string) => call(t.app, 'GET', `/api/customer/invoices/${id}/pdf`, { token });

describe('GET /api/customer/invoices', () => {
  it("lists the account's final invoices only: not drafts, not another customer's", async () => {
    const res = await list(session);
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ count: 1, limit: 50, offset: 0 });
    const orders = await call(t.app, 'GET', '/api/customer/orders', { token: session });
    expect(orders.data.orders.map((o: { id: string }) => o.id)).toEqual(
      expect.arrayContaining([mine.order_id, draft.order_id]),
    );
    const order = orders.data.orders.find((o: { id: string }) => o.id === mine.order_id);
    expect(res.data.invoices).toEqual([
      {
        id: mine.id,
        number: mine.number,
        order_id: mine.order_id,
        order_number: order.number,
        issue_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        status: 'final',
        currency: 'EUR',
        total_cents: mine.total_cents,
        credited_cents: 0,
      },
    ]);
    const other = await list(otherSession);
    expect(other.data.invoices.map((i: { id: string }) => i.id)).toEqual([theirs.id]);
  });

  it('filters by the orders a page shows (order_id repeated); naming another customer’s order finds nothing', async () => {
    const one = await list(session, { order_id: mine.order_id });
    expect(one.data.invoices.map((i: { id: string }) => i.id)).toEqual([mine.id]);
    const url = `/api/customer/invoices?order_id=${mine.order_id}&order_id=${theirs.order_id}&order_id=${draft.order_id}`;
    const several = await call(t.app, 'GET', url, { token: session });
    expect(several.statusCode).toBe(200);
    expect(several.data.invoices.map((i: { id: string }) => i.id)).toEqual([mine.id]);
    const foreign = await list(session, { order_id: theirs.order_id });
    expect(foreign.data).toMatchObject({ count: 0, invoices: [] });
  });

  it('refuses invalid queries with 400 validation_failed at the parameter', async () => {
    const tooMany = Array.from({ length: 101 }, (_, i) => `order_id=ord_${i}`).join('&');
    const many = await call(t.app, 'GET', `/api/customer/invoices?${tooMany}`, { token: session });
    expectProblem(many, 400, 'validation_failed');
    expect(many.data.errors[0].path).toBe('/query/order_id');
    const limit = await list(session, { limit: '0' });
    expectProblem(limit, 400, 'validation_failed');
    expect(limit.data.errors[0].path).toBe('/query/limit');
    expectProblem(await list(session, { status: 'draft' }), 400, 'validation_failed');
    expectProblem(await list(session, { order_id: '' }), 400, 'validation_failed');
  });

  it('refuses every credential but a customer session', async () => {
    expectProblem(await call(t.app, 'GET', '/api/customer/invoices'), 401, 'unauthenticated');
    expectProblem(await list(f.owner), 403, 'credential_denied');
    expectProblem(
      await call(t.app, 'GET', '/api/customer/invoices', {
        token: f.shop.publishableKey,
        headers: { origin: STORE_ORIGIN },
      }),
      403,
      'credential_denied',
    );
    expectProblem(await list('csess_not_a_session'), 401, 'invalid_credential');
  });
});

describe('GET /api/customer/invoices/:id/pdf', () => {
  it("answers the own final invoice's PDF as a download", async () => {
    const res = await pdf(session, mine.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename=".+\.pdf"$/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // the same document the admin downloads
    const admin = await call(t.app, 'GET', `/api/admin/invoices/${mine.id}/pdf`, { token: f.owner });
    expect(res.rawPayload.length).toBeGreaterThan(1000);
    expect(admin.statusCode).toBe(200);
  });

  it("is 404 for another customer's invoice, a draft of an own order and an unknown id", async () => {
    expectProblem(await pdf(session, theirs.id), 404, 'not_found');
    expectProblem(await pdf(otherSession, mine.id), 404, 'not_found');
    expectProblem(await pdf(session, draft.id), 404, 'not_found');
    expectProblem(await pdf(session, 'inv_unknown'), 404, 'not_found');
  });

  it('refuses every credential but a customer session', async () => {
    expectProblem(await call(t.app, 'GET', `/api/customer/invoices/${mine.id}/pdf`), 401, 'unauthenticated');
    expectProblem(await pdf(f.owner, mine.id), 403, 'credential_denied');
    expectProblem(
      await call(t.app, 'GET', `/api/customer/invoices/${mine.id}/pdf`, {
        token: f.shop.publishableKey,
        headers: { origin: STORE_ORIGIN },
      }),
      403,
      'credential_denied',
    );
  });
});
