/** Every table of the service, for Drizzle's typed queries and drizzle-kit. */
export * from '../../modules/catalog/catalog.tables.js';
export * from '../../modules/channels/channels.tables.js';
export * from '../../modules/identity/identity.tables.js';
export * from '../../modules/shops/shops.tables.js';
export * from './platform.tables.js';
