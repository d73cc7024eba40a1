/** Request and response schemas of a product's channel listings (docs/storefront.md). */
import { type Static, Type } from '@sinclair/typebox';
import { Body, Nullable, Timestamp } from '../../platform/http/schemas.js';
import { MAX_CENTS } from './catalog.schemas.js';

const Cents = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_CENTS, description });

export const ListingParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  channelId: Type.String({ minLength: 1, maxLength: 64 }),
});

export const ListingSchema = Type.Object({
  channel_id: Type.String(),
  channel_name: Type.String(),
  variant_id: Nullable(Type.String({ description: 'null: the listing of the product itself' })),
  is_published: Type.Boolean({
    description:
      'Product listing: the product is offered in the channel. Variant listing: false hides the variant there',
  }),
  price_cents: Nullable(Type.Integer({ description: 'The custom channel price; null: the fallback applies' })),
  compare_at_price_cents: Nullable(Type.Integer()),
  effective_price_cents: Type.Integer({
    description:
      'The price that applies in the channel: variant listing → variant price → product listing → base price',
  }),
  currency: Type.String({ description: "The channel's currency" }),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type ListingOut = Static<typeof ListingSchema>;

export const ListingList = Type.Object({ listings: Type.Array(ListingSchema) });

export const ListingPatch = Body({
  is_published: Type.Optional(Type.Boolean()),
  price_cents: Type.Optional(
    Nullable(Cents('Custom channel price in cents, gross; null removes it (the fallback price applies)')),
  ),
  compare_at_price_cents: Type.Optional(Nullable(Cents('The "was" price shown struck through; null removes it'))),
  variant_id: Type.Optional(
    Nullable(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'A variant of this product: the listing (and price) of that variant; absent or null: the product',
      }),
    ),
  ),
});
export type ListingPatchInput = Static<typeof ListingPatch>;
