/** Every module's matrix rows. A new module adds its file here. */
import type { MatrixRow } from '../matrix.types.js';
import { affiliatesRows } from './affiliates.rows.js';
import { backofficeRows } from './backoffice.rows.js';
import { catalogRows } from './catalog.rows.js';
import { channelRestrictionRows } from './channel-restriction.rows.js';
import { channelRows } from './channels.rows.js';
import { checkoutSettingsRows } from './checkout-settings.rows.js';
import { customersRows } from './customers.rows.js';
import { digitalRows } from './digital.rows.js';
import { financeRows } from './finance.rows.js';
import { healthRows } from './health.rows.js';
import { identityRows } from './identity.rows.js';
import { orderRows } from './orders.rows.js';
import { partnerAuthRows } from './partner-auth.rows.js';
import { payoutsRows } from './payouts.rows.js';
import { shippingRows } from './shipping.rows.js';
import { builtInStorefrontRows, storefrontRows } from './storefront.rows.js';
import { vendorsRows } from './vendors.rows.js';
import { webhookRows } from './webhooks.rows.js';

export const ALL_ROWS: { module: string; rows: MatrixRow[] }[] = [
  { module: 'health', rows: healthRows },
  { module: 'identity', rows: identityRows },
  { module: 'catalog', rows: catalogRows },
  { module: 'channels', rows: channelRows },
  { module: 'webhooks', rows: webhookRows },
  { module: 'shipping', rows: shippingRows },
  { module: 'storefront', rows: storefrontRows },
  { module: 'built-in-storefront', rows: builtInStorefrontRows },
  { module: 'orders', rows: orderRows },
  { module: 'digital', rows: digitalRows },
  { module: 'finance', rows: financeRows },
  { module: 'partner-auth', rows: partnerAuthRows },
  { module: 'vendors', rows: vendorsRows },
  { module: 'affiliates', rows: affiliatesRows },
  { module: 'payouts', rows: payoutsRows },
  { module: 'checkout-settings', rows: checkoutSettingsRows },
  { module: 'backoffice', rows: backofficeRows },
  { module: 'customers', rows: customersRows },
  // last: its setup adds a second channel, products and orders to the matrix shop
  { module: 'channel-restriction', rows: channelRestrictionRows },
];
