/** Shops (tenants): what other modules may use. The lowest module: it imports no other. */
export { lockShop, shopAboProvision, shopDigitalFlags, shopName, shopOf } from './shops.queries.js';
export { getShop, insertShop, listShops, platformShopOut, type ShopRow, updateShop } from './shops.service.js';
// Tables other modules still read directly (listed in docs/ARCHITECTURE.md, "Cross-module table reads").
export { shops } from './shops.tables.js';
