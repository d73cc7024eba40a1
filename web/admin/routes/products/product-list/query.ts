/**
 * The products list's server query from the URL search: used by the route's loader and the page,
 * so both share one cache entry. Filters and sort are the API's own parameters.
 */
import { $api } from '../../../../shared/api.js';
import { type Paging, serverPaging } from '../../../../shared/list.js';

export interface ProductListSearch extends Paging {
  q?: string | undefined;
  status?: 'draft' | 'published' | 'archived' | undefined;
  category_id?: string | undefined;
  brand_id?: string | undefined;
  supplier_id?: string | undefined;
  digital?: 'ja' | undefined;
  sort?:
    | '-created_at'
    | 'created_at'
    | 'name'
    | '-name'
    | 'sku'
    | '-sku'
    | 'base_price_cents'
    | '-base_price_cents'
    | 'updated_at'
    | '-updated_at'
    | undefined;
}

export const productListQuery = (search: ProductListSearch) =>
  $api.queryOptions('get', '/api/admin/products', {
    params: {
      query: {
        ...serverPaging(search),
        q: search.q,
        status: search.status,
        category_id: search.category_id,
        brand_id: search.brand_id,
        supplier_id: search.supplier_id,
        digital: search.digital,
        sort: search.sort,
      },
    },
  });
