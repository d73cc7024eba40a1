import { createCommerceClient } from '../index.js';

/** Storefront: list products and create a checkout session; the buyer pays at `session.url`. */
export async function storefrontFlow(baseUrl: string, publishableKey: string, origin: string) {
  const store = createCommerceClient({ baseUrl, token: publishableKey, origin });
  const { data: list, error } = await store.GET('/api/store/products', { params: { query: { limit: 10 } } });
  if (error) throw new Error(error.detail);
  const product = list.products[0];
  if (!product) throw new Error('nothing to sell');
  const { data: session } = await store.POST('/api/store/checkout-sessions', {
    body: {
      items: [{ product_id: product.id, quantity: 1 }],
      customer: {
        email: 'buyer@example.com',
        billing_address: {
          name: 'Erika Muster',
          line1: 'Hauptstr. 1',
          postal_code: '10115',
          city: 'Berlin',
          country: 'DE',
        },
      },
      return_url: `${origin}/thanks`,
    },
  });
  return { products: list.products, session };
}
