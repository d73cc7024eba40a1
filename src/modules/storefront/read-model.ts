/**
 * The storefront's read model: everything the public catalog keeps between requests, in one
 * place and per process, all of it keyed by the shop's storefront version (bumped by triggers in
 * the transaction of every change the storefront shows; read-model.test.ts checks the triggers):
 *
 * - `responses`: whole response bodies per (shop, channel-selecting request parts, query);
 * - `fragments`: each product's JSON per (shop, channel, product), from which list pages and
 *   product pages are assembled when the response is not kept;
 * - `lists`: each filter's ordered product ids (and the exact counts of filters too large for a
 *   list), so that a page is a slice and its products are fragments — filled by catalog's public
 *   reads (`publicPageIds`, `publicProducts`), which run the statements.
 *
 * An entry is used only at exactly the version the request read; docs/storefront.md has the rules.
 */
import type { Db } from '../../platform/db/client.js';
import { PublicListMemo } from '../catalog/index.js';
import { StorefrontCache } from './storefront.cache.js';
import { ProductFragments } from './storefront.fragments.js';

export class StorefrontReadModel {
  readonly responses: StorefrontCache;
  readonly fragments = new ProductFragments();
  readonly lists = new PublicListMemo();

  constructor(db: Db) {
    this.responses = new StorefrontCache(db);
  }
}
