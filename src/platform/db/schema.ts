/** Every table of the service, for Drizzle's typed queries and drizzle-kit. */
export * from '../../adapters/mail/mail.tables.js';
export * from '../../modules/backoffice/backoffice.tables.js';
export * from '../../modules/catalog/catalog.tables.js';
export * from '../../modules/catalog/catalog-version.tables.js';
export * from '../../modules/channels/channels.tables.js';
export * from '../../modules/checkout/checkout.tables.js';
export * from '../../modules/digital/digital.tables.js';
export * from '../../modules/finance/finance.tables.js';
export * from '../../modules/identity/identity.tables.js';
export * from '../../modules/orders/orders.tables.js';
export * from '../../modules/partners/partners.tables.js';
export * from '../../modules/shipping/shipping.tables.js';
export * from '../../modules/shops/shops.tables.js';
export * from '../../modules/storefront/storefront.tables.js';
export * from '../../modules/webhooks/webhooks.tables.js';
export * from './directory.tables.js';
export * from './platform.tables.js';
