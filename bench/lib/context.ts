/** The BenchContext handed to each case's setup: the app's URL, credentials and data helpers. */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/platform/db/client.js';
import type { ApiCallOptions, ApiResponse, BenchContext, CreateShopOptions, HttpMethod, ShopFixture } from './types.js';

export const STOREFRONT_ORIGIN = 'https://store.bench.test';
const OWNER_PASSWORD = 'bench-owner-password-1';

export function createContext(opts: {
  baseUrl: string;
  platformToken: string;
  db: Db;
  log: (message: string) => void;
}): BenchContext {
  const { baseUrl, platformToken, db, log } = opts;
  let shops = 0;

  async function api(method: HttpMethod, path: string, call: ApiCallOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...(call.headers ?? {}) };
    if (call.token) headers.authorization = `Bearer ${call.token}`;
    let body: string | undefined;
    if (call.body !== undefined) {
      body = typeof call.body === 'string' ? call.body : JSON.stringify(call.body);
      if (typeof call.body !== 'string') headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(baseUrl + path, { method, headers, body });
    const text = await res.text();
    const type = res.headers.get('content-type') ?? '';
    let data: any = null;
    if (type.includes('json') && text) {
      try {
        data = JSON.parse(text);
      } catch {
        data = null;
      }
    }
    return { status: res.status, headers: res.headers, data, text };
  }

  async function createShop(shop: CreateShopOptions = {}): Promise<ShopFixture> {
    const n = ++shops;
    const email = `bench-owner${n}-${randomBytes(4).toString('hex')}@bench.test`;
    const origins = shop.origins ?? [STOREFRONT_ORIGIN];
    const created = await api('POST', '/api/platform/shops', {
      token: platformToken,
      body: {
        name: shop.name ?? `Bench shop ${n}`,
        owner_email: email,
        owner_password: OWNER_PASSWORD,
        digital_allowed: shop.digitalAllowed ?? true,
        storefront_origins: origins,
        currency: 'EUR',
        country: 'DE',
      },
    });
    if (created.status !== 201) throw new Error(`shop creation failed (${created.status}): ${created.text}`);
    const login = await api('POST', '/api/auth/login', { body: { email, password: OWNER_PASSWORD } });
    if (login.status !== 200) throw new Error(`owner login failed (${login.status}): ${login.text}`);
    return {
      shopId: created.data.shop.id,
      ownerId: created.data.owner.id,
      ownerEmail: email,
      ownerPassword: OWNER_PASSWORD,
      ownerToken: login.data.token,
      publishableKey: created.data.publishable_key.key,
      publishableKeyId: created.data.publishable_key.id,
      storefrontOrigin: origins[0] ?? STOREFRONT_ORIGIN,
      defaultChannelId: created.data.default_channel.id,
    };
  }

  return { baseUrl, platformToken, db, api, createShop, log };
}
