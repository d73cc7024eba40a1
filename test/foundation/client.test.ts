/**
 * The typed client (clients/typescript): its committed types are what the current app generates,
 * and the README's storefront and admin examples run against the real app over HTTP.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminFlow } from '../../clients/typescript/examples/admin.js';
import { storefrontFlow } from '../../clients/typescript/examples/storefront.js';
import { clientTypes, ROLES_FILE, ROLES_TYPES_FILE, roleMap, SCHEMA_FILE } from '../../scripts/generate-client.js';
import { SELLER } from '../../src/modules/finance/finance.fixtures.js';
import { call, createShop, type ShopFixture, STORE_ORIGIN, startApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let baseUrl: string;
let shop: ShopFixture;
beforeAll(async () => {
  t = await startApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  shop = await createShop(t.app);
  const owner = shop.ownerToken;
  const product = await call(t.app, 'POST', '/api/products', {
    token: owner,
    body: { name: 'Online-Kurs', is_digital: true, base_price_cents: 9900, status: 'published' },
  });
  const listed = await call(t.app, 'PATCH', `/api/products/${product.data.id}/channels/${shop.defaultChannelId}`, {
    token: owner,
    body: { is_published: true },
  });
  const company = await call(t.app, 'PUT', '/api/admin/settings/company', { token: owner, body: SELLER });
  expect([product.statusCode, listed.statusCode, company.statusCode]).toEqual([201, 200, 200]);
});
afterAll(() => t.close());

describe('typed client', () => {
  it('has committed types equal to what the current app generates (npm run client:generate)', async () => {
    const generated = await clientTypes(t.app.swagger());
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    // a plain equality check, not a diff: on failure, run `npm run client:generate` and commit
    expect(generated === committed, `${SCHEMA_FILE} is stale: run npm run client:generate`).toBe(true);
    expect(committed).toContain('createCheckoutSession: {');
    // the role map pages use (x-roles per operation) is current too
    const roles = roleMap(t.app.swagger());
    expect(roles.js === readFileSync(ROLES_FILE, 'utf8'), `${ROLES_FILE} is stale: run npm run client:generate`).toBe(
      true,
    );
    expect(roles.dts === readFileSync(ROLES_TYPES_FILE, 'utf8'), `${ROLES_TYPES_FILE} is stale`).toBe(true);
    const { OPERATION_ROLES } = (await import('../../clients/typescript/roles.js')) as {
      OPERATION_ROLES: Record<string, string[]>;
    };
    expect(OPERATION_ROLES['POST /api/admin/orders/{id}/cancel']).toEqual(['owner', 'admin']);
    expect(OPERATION_ROLES['GET /api/admin/orders']).toEqual(['owner', 'admin', 'catalog_editor', 'viewer']);
  });

  it('runs the storefront and admin examples of its README against the app', async () => {
    const { products, session } = await storefrontFlow(baseUrl, shop.publishableKey, STORE_ORIGIN);
    expect(products.map((p) => p.name)).toEqual(['Online-Kurs']);
    expect(session?.url).toContain(`/pay/${session?.id}`);
    // the buyer pays on the hosted page
    const paid = await call(t.app, 'POST', `/pay/${session?.id}`, {
      body: new URLSearchParams({
        name: 'Erika Muster',
        line1: 'Hauptstr. 1',
        postal_code: '10115',
        city: 'Berlin',
        country: 'DE',
        card_number: '4242424242424242',
        widerruf_verzicht: 'on',
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(paid.statusCode).toBe(303);
    const orders = await call(t.app, 'GET', '/api/admin/orders', { token: shop.ownerToken });
    const orderId = orders.data.orders[0].id as string;

    const { product, invoice } = await adminFlow(baseUrl, shop.ownerEmail, 'owner-password-1', orderId);
    expect(product?.name).toBe('Poster A2');
    expect(invoice?.status).toBe('final');
    expect(invoice?.number).toMatch(/^RE-\d{4}-\d+$/);
    expect(invoice?.order_id).toBe(orderId);
  });

  it('shows in its README exactly the examples the test runs', () => {
    const readme = readFileSync('clients/typescript/README.md', 'utf8');
    for (const file of ['storefront', 'admin']) {
      const code = readFileSync(`clients/typescript/examples/${file}.ts`, 'utf8').replace(
        "from '../index.js'",
        "from '@commerce-service/client'",
      );
      expect(readme, file).toContain(code);
    }
  });
});
