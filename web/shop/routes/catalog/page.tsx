/** The catalog: search, category and page in the URL; the server filters and pages. */
import { keepPreviousData } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useT } from '../../../shared/i18n/index.js';
import { ProblemAlert } from '../../../shared/widgets/ProblemAlert.js';
import { $store } from '../../api.js';
import { Price, ProductImage } from '../../price.js';
import { catalogSearch, PAGE_SIZE, useShopSearch } from '../../router.js';
import { go, ShopLink, shopName } from '../../shell.js';

export function CatalogPage() {
  const t = useT();
  const search = useShopSearch(catalogSearch);
  const products = $store.useQuery(
    'get',
    '/api/store/products',
    {
      params: {
        query: {
          limit: PAGE_SIZE,
          offset: (search.page - 1) * PAGE_SIZE,
          ...(search.q ? { q: search.q } : {}),
          ...(search.category ? { category_id: search.category } : {}),
        },
      },
    },
    { placeholderData: keepPreviousData },
  );
  const categories = $store.useQuery('get', '/api/store/categories', {}, { staleTime: 300_000 });
  const count = products.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / PAGE_SIZE));

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    go('/', {
      q: String(data.get('q') ?? '').trim() || undefined,
      category: String(data.get('category') ?? '') || undefined,
    });
  };
  const filtered = Boolean(search.q || search.category);

  return (
    <section aria-labelledby="catalog-title">
      <h1 id="catalog-title">{shopName()}</h1>
      {/* biome-ignore lint/a11y/useSemanticElements: <search> is not in React's JSX types yet; the role is the same landmark */}
      <form className="catalog-filters" role="search" onSubmit={onSubmit} key={`${search.q}|${search.category}`}>
        <div className="field">
          <label htmlFor="catalog-q">{t.shop.search}</label>
          <input
            id="catalog-q"
            name="q"
            type="search"
            defaultValue={search.q ?? ''}
            placeholder={t.shop.searchPlaceholder}
          />
        </div>
        <div className="field">
          <label htmlFor="catalog-category">{t.shop.category}</label>
          <select id="catalog-category" name="category" defaultValue={search.category ?? ''}>
            <option value="">{t.shop.allCategories}</option>
            {categories.data?.categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="primary">
          {t.shop.searchSubmit}
        </button>
        {filtered ? (
          <ShopLink to="/" className="reset-link">
            {t.shop.resetFilters}
          </ShopLink>
        ) : null}
      </form>

      {products.error ? <ProblemAlert problem={products.error} /> : null}
      <p className="muted" aria-live="polite">
        {products.data ? t.shop.results(count) : ''}
      </p>
      {products.data && products.data.products.length === 0 ? <p className="empty">{t.shop.noResults}</p> : null}
      <ul className="product-grid">
        {products.data?.products.map((p) => (
          <li key={p.id} className="product-card">
            <ProductImage product={p} />
            <h2 className="product-card-title">
              <ShopLink to={`/produkt/${encodeURIComponent(p.slug)}`}>{p.name}</ShopLink>
            </h2>
            {p.short_description ? <p className="product-card-text">{p.short_description}</p> : null}
            <Price product={p} />
            {p.in_stock ? null : <p className="badge badge-muted">{t.shop.outOfStock}</p>}
            {p.is_digital ? <p className="badge">{t.shop.digital}</p> : null}
          </li>
        ))}
      </ul>
      {pages > 1 ? (
        <nav className="shop-pager" aria-label={t.shop.paging}>
          {search.page > 1 ? (
            <ShopLink to="/" search={{ ...search, page: search.page - 1 }} rel="prev">
              {t.shop.previous}
            </ShopLink>
          ) : (
            <span aria-hidden="true" />
          )}
          <span>{t.shop.pageOf(search.page, pages)}</span>
          {search.page < pages ? (
            <ShopLink to="/" search={{ ...search, page: search.page + 1 }} rel="next">
              {t.shop.next}
            </ShopLink>
          ) : (
            <span aria-hidden="true" />
          )}
        </nav>
      ) : null}
    </section>
  );
}
