import { createCommerceClient } from '../index.js';

/** Admin: sign in, create a product, and turn a paid order into a final invoice. */
export async function adminFlow(baseUrl: string, email: string, password: string, orderId: string) {
  const { data: login } = await createCommerceClient({ baseUrl }).POST('/api/auth/login', {
    body: { email, password },
  });
  if (!login) throw new Error('login failed');
  const admin = createCommerceClient({ baseUrl, token: login.token });
  const { data: product } = await admin.POST('/api/products', {
    body: { name: 'Poster A2', base_price_cents: 2490, status: 'published' },
  });
  const { data: draft } = await admin.POST('/api/admin/orders/{orderId}/invoice', {
    params: { path: { orderId } },
    body: {},
  });
  if (!draft) throw new Error('no draft invoice');
  const { data: invoice, error } = await admin.POST('/api/admin/invoices/{id}/finalize', {
    params: { path: { id: draft.id } },
  });
  if (error) throw new Error(`${error.code}: ${error.detail}`);
  return { product, invoice };
}
