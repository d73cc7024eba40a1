/** Request schemas of the platform operator's routes. */
import { Type } from '@sinclair/typebox';
import { Body, Email } from '../../platform/http/schemas.js';
import { CountryCode, CurrencyCode } from '../channels/index.js';

export const CreateShopBody = Body({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  owner_email: Email,
  owner_password: Type.String({ minLength: 8, maxLength: 200 }),
  owner_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  digital_allowed: Type.Optional(Type.Boolean()),
  storefront_origins: Type.Optional(Type.Array(Type.String({ maxLength: 300 }), { maxItems: 50 })),
  currency: Type.Optional({ ...CurrencyCode, description: "The default channel's currency (default EUR)" }),
  country: Type.Optional({ ...CountryCode, description: "The default channel's country (default DE)" }),
});
