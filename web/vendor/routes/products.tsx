/** The vendor's products (GET /api/vendor/products, paged on the server, page in the URL). */
import { portalText } from '../../portal/i18n.js';
import { usePortalSearch } from '../../portal/nav.js';
import { Loaded, UrlPager } from '../../portal/parts.js';
import { usePortalTitle } from '../../portal/shell.js';
import { $api } from '../../shared/api.js';
import { useFormat } from '../../shared/format.js';
import { useDictionary } from '../../shared/i18n/index.js';
import { serverPaging } from '../../shared/list.js';
import { ScrollRegion } from '../../shared/widgets/ScrollRegion.js';
import { vendorText } from '../i18n.js';
import { listSearch } from '../search.js';

export function ProductsPage() {
  const v = useDictionary(vendorText);
  const s = useDictionary(portalText);
  const f = useFormat();
  usePortalTitle(v.products.title);
  const search = usePortalSearch(listSearch);
  const query = $api.useQuery('get', '/api/vendor/products', { params: { query: serverPaging(search) } });
  return (
    <>
      <h1 id="products-title">{v.products.title}</h1>
      <p className="muted">{v.products.intro}</p>
      <Loaded query={query}>
        {(d) =>
          d.products.length === 0 ? (
            <p>{s.empty}</p>
          ) : (
            <>
              <ScrollRegion labelledBy="products-title">
                <table className="data" aria-labelledby="products-title">
                  <thead>
                    <tr>
                      <th scope="col">{v.products.name}</th>
                      <th scope="col">{v.products.sku}</th>
                      <th scope="col">{v.products.status}</th>
                      <th scope="col" className="num">
                        {v.products.price}
                      </th>
                      <th scope="col" className="num">
                        {v.products.stock}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.products.map((p) => (
                      <tr key={p.id}>
                        <th scope="row">
                          {p.name}
                          {p.is_digital ? <span className="muted"> · {v.products.digital}</span> : null}
                        </th>
                        <td className="mono">{p.sku ?? s.none}</td>
                        <td>{v.products.statuses[p.status] ?? p.status}</td>
                        {/* the base price carries no currency in the API; shown in EUR like the admin's product list */}
                        <td className="num">{f.money(p.base_price_cents, 'EUR')}</td>
                        <td className="num">{p.stock === null ? v.products.notTracked : f.number(p.stock)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollRegion>
              <UrlPager count={d.count} search={search} />
            </>
          )
        }
      </Loaded>
    </>
  );
}
