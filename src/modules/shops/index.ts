export { type CreateShopInput, createShop, getShop, listShops, platformShopOut, updateShop } from './shops.service.js';
