/** Routes of a product's channel listings (docs/catalog.md). */
import { readCatalog, writeCatalog } from '../../platform/auth/presets.js';
import { IdParams, NoContent } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import * as S from './listings.schemas.js';
import { listListings, removeListing, upsertListing } from './listings.service.js';

const tags = ['catalog'];

export function listingRoutes(app: TypedApp): void {
  app.get(
    '/api/products/:id/channels',
    {
      config: readCatalog,
      schema: {
        tags,
        summary: "The product's channel listings (its own and its variants')",
        params: IdParams,
        response: { 200: S.ListingList },
      },
    },
    async (request) => ({ listings: await listListings(request.ctx, request.params.id) }),
  );

  app.patch(
    '/api/products/:id/channels/:channelId',
    {
      config: writeCatalog,
      schema: {
        tags,
        summary:
          'Create or change the listing of the product (or of one variant) in a channel; token price changes are policy-checked',
        params: S.ListingParams,
        body: S.ListingPatch,
        response: { 200: S.ListingSchema },
      },
    },
    async (request) => {
      const { id, channelId } = request.params;
      return upsertListing(request.ctx, id, channelId, request.body);
    },
  );

  app.delete(
    '/api/products/:id/channels/:channelId',
    {
      config: writeCatalog,
      schema: {
        tags,
        summary:
          "Take the product out of a channel: its listing and its variants' listings there are removed, with their custom prices",
        params: S.ListingParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { id, channelId } = request.params;
      await removeListing(request.ctx, id, channelId);
      return reply.code(204).send();
    },
  );
}
