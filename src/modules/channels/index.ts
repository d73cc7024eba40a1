/** Sales channels: what other modules may use. */
import type { Module } from '../../platform/module.js';
import { channelRoutes } from './channels.routes.js';

export {
  channelCountry,
  channelCountryRates,
  channelPaymentMethods,
  type EffectiveCountry,
} from './channel-config.service.js';
export {
  channelAutoConfirmsOrders,
  channelSql,
  defaultChannelCurrency,
  defaultChannelDomain,
  shopOfDomain,
} from './channels.queries.js';
export { ChannelSchema, CountryCode, CurrencyCode } from './channels.schemas.js';
export { type ChannelRow, channelOut, createDefaultChannel, getChannel, listChannels } from './channels.service.js';
export { hostOf, type ResolvedChannel, resolveChannel } from './resolve.js';

export const channelsModule: Module = { name: 'channels', group: 'shop', routes: channelRoutes };
