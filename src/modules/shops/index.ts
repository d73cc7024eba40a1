/** Shops (tenants): what other modules may use. The lowest module: it imports no other. */
export {
  lockShop,
  setShopDigitalSettings,
  setShopMaxLineQuantity,
  shopAboProvision,
  shopDigitalFlags,
  shopMaxLineQuantity,
  shopName,
  shopOf,
} from './shops.queries.js';
export { getShop, insertShop, listShops, platformShopOut, type ShopRow, updateShop } from './shops.service.js';
