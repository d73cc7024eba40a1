/** Categories, brands and suppliers: CRUD, the category tree, in-use protection, credentials. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiToken,
  call,
  createShop,
  employeeToken,
  expectProblem,
  type ShopFixture,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';

let t: TestApp;
let shop: ShopFixture;
let owner: string;

beforeAll(async () => {
  t = await startApp();
  shop = await createShop(t.app);
  owner = shop.ownerToken;
});
afterAll(() => t.close());

const req = (method: string, url: string, body?: unknown, token = owner) =>
  call(t.app, method, url, { token, ...(body !== undefined ? { body } : {}) });

async function make(kind: string, body: Record<string, unknown>, token = owner) {
  const res = await req('POST', `/api/admin/${kind}`, body, token);
  if (res.statusCode !== 201) throw new Error(`create ${kind} failed: ${res.body}`);
  return res.data;
}

describe('categories', () => {
  it('creates, reads, lists and changes categories', async () => {
    const root = await make('categories', { name: 'Zubehör', description: 'Alles Mögliche' });
    expect(root).toMatchObject({ name: 'Zubehör', parent_id: null, description: 'Alles Mögliche' });
    expect(root.id).toMatch(/^cat_/);
    const child = await make('categories', { name: 'Taschen', parent_id: root.id });
    expect(child.parent_id).toBe(root.id);
    expect((await req('GET', `/api/admin/categories/${child.id}`)).data).toEqual(child);

    const all = await req('GET', '/api/admin/categories');
    expect(all.statusCode).toBe(200);
    expect(all.data).toMatchObject({ count: 2, limit: 50, offset: 0 });
    // ordered by name
    expect(all.data.categories.map((c: { name: string }) => c.name)).toEqual(['Taschen', 'Zubehör']);
    const roots = await call(t.app, 'GET', '/api/admin/categories', { token: owner, query: { parent_id: 'ohne' } });
    expect(roots.data.categories.map((c: { id: string }) => c.id)).toEqual([root.id]);
    const children = await call(t.app, 'GET', '/api/admin/categories', { token: owner, query: { parent_id: root.id } });
    expect(children.data.categories.map((c: { id: string }) => c.id)).toEqual([child.id]);
    const search = await call(t.app, 'GET', '/api/admin/categories', { token: owner, query: { q: 'zubehor' } });
    expect(search.data.categories.map((c: { id: string }) => c.id)).toEqual([root.id]);
    const page = await call(t.app, 'GET', '/api/admin/categories', {
      token: owner,
      query: { limit: '1', offset: '1' },
    });
    expect(page.data).toMatchObject({ count: 2, limit: 1, offset: 1 });
    expect(page.data.categories).toHaveLength(1);

    const renamed = await req('PATCH', `/api/admin/categories/${child.id}`, { name: 'Rucksäcke', description: null });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.data).toMatchObject({ name: 'Rucksäcke', parent_id: root.id, description: null });
    const moved = await req('PATCH', `/api/admin/categories/${child.id}`, { parent_id: null });
    expect(moved.data.parent_id).toBeNull();
  });

  it('never lets a category become its own ancestor (400)', async () => {
    const a = await make('categories', { name: 'A' });
    const b = await make('categories', { name: 'B', parent_id: a.id });
    const c = await make('categories', { name: 'C', parent_id: b.id });
    const self = await req('PATCH', `/api/admin/categories/${a.id}`, { parent_id: a.id });
    expectProblem(self, 400, 'invalid_parent');
    const grandchild = await req('PATCH', `/api/admin/categories/${a.id}`, { parent_id: c.id });
    expectProblem(grandchild, 400, 'invalid_parent');
    expect(grandchild.data.errors[0].path).toBe('/body/parent_id');
    expectProblem(await req('PATCH', `/api/admin/categories/${b.id}`, { parent_id: c.id }), 400, 'invalid_parent');
    expect((await req('GET', `/api/admin/categories/${a.id}`)).data.parent_id).toBeNull();
    // moving within the tree otherwise works
    expect((await req('PATCH', `/api/admin/categories/${c.id}`, { parent_id: a.id })).data.parent_id).toBe(a.id);
  });

  it('refuses unknown and foreign parents', async () => {
    expectProblem(
      await req('POST', '/api/admin/categories', { name: 'X', parent_id: 'cat_nope' }),
      400,
      'validation_failed',
    );
    const other = await createShop(t.app);
    const foreign = await make('categories', { name: 'Fremd' }, other.ownerToken);
    const res = await req('POST', '/api/admin/categories', { name: 'X', parent_id: foreign.id });
    expectProblem(res, 400, 'validation_failed');
    expect(res.data.errors[0].path).toBe('/body/parent_id');
    const mine = await make('categories', { name: 'Meins' });
    expectProblem(
      await req('PATCH', `/api/admin/categories/${mine.id}`, { parent_id: foreign.id }),
      400,
      'validation_failed',
    );
    // and another shop's category is not found here
    expectProblem(await req('GET', `/api/admin/categories/${foreign.id}`), 404, 'not_found');
    expectProblem(await req('PATCH', `/api/admin/categories/${foreign.id}`, { name: 'gekapert' }), 404, 'not_found');
    expectProblem(await req('DELETE', `/api/admin/categories/${foreign.id}`), 404, 'not_found');
    expect((await req('GET', `/api/admin/categories/${foreign.id}`, undefined, other.ownerToken)).data.name).toBe(
      'Fremd',
    );
  });

  it('keeps sibling names unique (409 name_taken)', async () => {
    const parent = await make('categories', { name: 'Eltern' });
    await make('categories', { name: 'Kind', parent_id: parent.id });
    expectProblem(
      await req('POST', '/api/admin/categories', { name: 'kind', parent_id: parent.id }),
      409,
      'name_taken',
    );
    // the same name under another parent is fine
    const other = await make('categories', { name: 'Kind' });
    expectProblem(await req('PATCH', `/api/admin/categories/${other.id}`, { parent_id: parent.id }), 409, 'name_taken');
  });

  it('refuses to delete a category in use by products or subcategories (409 in_use)', async () => {
    const parent = await make('categories', { name: 'Voll' });
    const sub = await make('categories', { name: 'Unter', parent_id: parent.id });
    const target = await make('categories', { name: 'Ziel' });
    const p = await req('POST', '/api/products', { name: 'Nutzer', category_id: sub.id });
    const res = await req('DELETE', `/api/admin/categories/${sub.id}`);
    expectProblem(res, 409, 'in_use');
    expect(res.data.detail).toContain('1 product');
    expectProblem(await req('DELETE', `/api/admin/categories/${parent.id}`), 409, 'in_use');
    // moving the product away frees the category
    await req('PATCH', `/api/products/${p.data.id}`, { category_id: target.id });
    expect((await req('DELETE', `/api/admin/categories/${sub.id}`)).statusCode).toBe(204);
    expect((await req('DELETE', `/api/admin/categories/${parent.id}`)).statusCode).toBe(204);
    expectProblem(await req('GET', `/api/admin/categories/${sub.id}`), 404, 'not_found');
    expectProblem(await req('DELETE', `/api/admin/categories/${sub.id}`), 404, 'not_found');
  });

  it('lets soft-deleted products not block a delete; their reference is cleared', async () => {
    const cat = await make('categories', { name: 'Nur Gelöschte' });
    const p = await req('POST', '/api/products', { name: 'Weg damit', category_id: cat.id });
    await req('DELETE', `/api/products/${p.data.id}`);
    expect((await req('DELETE', `/api/admin/categories/${cat.id}`)).statusCode).toBe(204);
    const rows = await t.app.deps.database.db.execute(sql`SELECT category_id FROM products WHERE id = ${p.data.id}`);
    expect((rows as unknown as { rows: { category_id: string | null }[] }).rows[0]?.category_id).toBeNull();
  });
});

describe('usage counts', () => {
  it('lists each record with the live products that use it; the 409 of a delete names that count', async () => {
    const other = await createShop(t.app);
    const cat = await make('categories', { name: 'Gezählt' });
    const sub = await make('categories', { name: 'Unterkategorie', parent_id: cat.id });
    const brand = await make('brands', { name: 'Gezählte Marke' });
    const supplier = await make('suppliers', { name: 'Gezählter Lieferant' });
    const ids: string[] = [];
    for (const name of ['Eins', 'Zwei', 'Drei']) {
      const p = await req('POST', '/api/products', { name, category_id: cat.id, brand_id: brand.id });
      ids.push(p.data.id);
    }
    await req('PATCH', `/api/products/${ids[0]}`, { supplier_id: supplier.id });
    // a deleted product does not count
    await req('DELETE', `/api/products/${ids[2]}`);
    const find = async (kind: string, q: string, token = owner) =>
      (await call(t.app, 'GET', `/api/admin/${kind}`, { token, query: { q } })).data[kind];
    expect(await find('categories', 'gezählt')).toEqual([{ ...cat, product_count: 2, subcategory_count: 1 }]);
    expect(await find('categories', 'unterkategorie')).toEqual([{ ...sub, product_count: 0, subcategory_count: 0 }]);
    expect(await find('brands', 'gezählte')).toEqual([{ ...brand, product_count: 2 }]);
    expect(await find('suppliers', 'gezählter')).toEqual([{ ...supplier, product_count: 1 }]);
    // another shop's products never count (and its lists do not show these records)
    expect(await find('brands', 'gezählte', other.ownerToken)).toEqual([]);

    const refused = await req('DELETE', `/api/admin/brands/${brand.id}`);
    expectProblem(refused, 409, 'in_use');
    expect(refused.data.detail).toBe('Brand is used by 2 products; move them to another brand first');
    const one = await req('DELETE', `/api/admin/suppliers/${supplier.id}`);
    expect(one.data.detail).toBe('Supplier is used by 1 product; move it to another supplier first');
    // moved away with a bulk action, the counts follow and the delete goes through
    const moved = await req('POST', '/api/products/bulk', {
      ids: ids.slice(0, 2),
      action: 'set_brand',
      brand_id: null,
    });
    expect(moved.data.succeeded).toBe(2);
    expect(await find('brands', 'gezählte')).toEqual([{ ...brand, product_count: 0 }]);
    expect((await req('DELETE', `/api/admin/brands/${brand.id}`)).statusCode).toBe(204);
    // renaming keeps the counts
    const renamed = await req('PATCH', `/api/admin/categories/${cat.id}`, { name: 'Umbenannt' });
    expect(renamed.statusCode).toBe(200);
    expect(await find('categories', 'umbenannt')).toEqual([
      { ...cat, name: 'Umbenannt', updated_at: renamed.data.updated_at, product_count: 2, subcategory_count: 1 },
    ]);
  });

  it('counts=false lists the same records without counting (for pickers); counts=true is the default', async () => {
    const cat = await make('categories', { name: 'Ungezählt' });
    await make('categories', { name: 'Ungezählt Unter', parent_id: cat.id });
    const brand = await make('brands', { name: 'Ungezählte Marke' });
    const supplier = await make('suppliers', { name: 'Ungezählter Lieferant' });
    await req('POST', '/api/products', { name: 'Eins', category_id: cat.id, brand_id: brand.id });
    const list = (kind: string, query: Record<string, string | number>) =>
      call(t.app, 'GET', `/api/admin/${kind}`, { token: owner, query: { q: 'ungezählt', ...query } });
    const plain = await list('categories', { counts: 'false' });
    expect(plain.statusCode).toBe(200);
    expect(plain.data.categories).toEqual([
      cat,
      expect.objectContaining({ name: 'Ungezählt Unter', parent_id: cat.id }),
    ]);
    expect(plain.data.categories[1]).not.toHaveProperty('product_count');
    expect(plain.data).toMatchObject({ count: 2, limit: 50, offset: 0 });
    expect((await list('brands', { counts: 'false' })).data.brands).toEqual([brand]);
    expect((await list('suppliers', { counts: 'false' })).data.suppliers).toEqual([supplier]);
    // paging works the same without counts
    const page2 = await list('categories', { counts: 'false', limit: 1, offset: 1 });
    expect(page2.data).toMatchObject({ count: 2, limit: 1, offset: 1 });
    expect(page2.data.categories.map((c: { name: string }) => c.name)).toEqual(['Ungezählt Unter']);
    // explicit and default: counted
    expect((await list('categories', { counts: 'true', limit: 1 })).data.categories).toEqual([
      { ...cat, product_count: 1, subcategory_count: 1 },
    ]);
    expect((await list('brands', {})).data.brands).toEqual([{ ...brand, product_count: 1 }]);
    expectProblem(await list('brands', { counts: 'nein' }), 400, 'validation_failed');
  });
});

describe('brands and suppliers', () => {
  it('creates, reads, lists, changes and deletes brands', async () => {
    const b = await make('brands', { name: 'Öko-Marke', description: 'fair' });
    expect(b).toMatchObject({ name: 'Öko-Marke', description: 'fair' });
    expect(b.id).toMatch(/^brand_/);
    expect((await req('GET', `/api/admin/brands/${b.id}`)).data).toEqual(b);
    const found = await call(t.app, 'GET', '/api/admin/brands', { token: owner, query: { q: 'oko' } });
    expect(found.data.brands.map((x: { id: string }) => x.id)).toEqual([b.id]);
    expect(found.data.count).toBe(1);
    const changed = await req('PATCH', `/api/admin/brands/${b.id}`, { name: 'Öko-Marke 2' });
    expect(changed.data).toMatchObject({ name: 'Öko-Marke 2', description: 'fair' });
    expectProblem(await req('POST', '/api/admin/brands', { name: 'öko-marke 2' }), 409, 'name_taken');
    const p = await req('POST', '/api/products', { name: 'Markenware', brand_id: b.id });
    expectProblem(await req('DELETE', `/api/admin/brands/${b.id}`), 409, 'in_use');
    await req('PATCH', `/api/products/${p.data.id}`, { brand_id: null });
    expect((await req('DELETE', `/api/admin/brands/${b.id}`)).statusCode).toBe(204);
    expectProblem(await req('PATCH', `/api/admin/brands/${b.id}`, { name: 'x' }), 404, 'not_found');
  });

  it('creates, reads, lists, changes and deletes suppliers', async () => {
    const s = await make('suppliers', { name: 'Großhändler', email: 'info@gross.example', phone: '+49 30 123' });
    expect(s).toMatchObject({ name: 'Großhändler', email: 'info@gross.example', phone: '+49 30 123' });
    expect(s.id).toMatch(/^sup_/);
    const list = await req('GET', '/api/admin/suppliers');
    expect(list.data.suppliers.map((x: { id: string }) => x.id)).toContain(s.id);
    const changed = await req('PATCH', `/api/admin/suppliers/${s.id}`, { email: null });
    expect(changed.data).toMatchObject({ email: null, phone: '+49 30 123' });
    const p = await req('POST', '/api/products', { name: 'Geliefert', supplier_id: s.id });
    expectProblem(await req('DELETE', `/api/admin/suppliers/${s.id}`), 409, 'in_use');
    await req('DELETE', `/api/products/${p.data.id}`);
    expect((await req('DELETE', `/api/admin/suppliers/${s.id}`)).statusCode).toBe(204);
  });

  it('validates bodies and queries', async () => {
    for (const [url, body] of [
      ['/api/admin/brands', {}],
      ['/api/admin/brands', { name: '' }],
      ['/api/admin/brands', { name: 'X', logo: 'y' }],
      ['/api/admin/suppliers', { name: 'X', email: 'not-an-email' }],
      ['/api/admin/suppliers', { name: 5 }],
      ['/api/admin/categories', { name: 'X', parent_id: 5 }],
    ] as const) {
      expectProblem(await req('POST', url, body), 400, 'validation_failed');
    }
    const s = await make('suppliers', { name: 'Valid' });
    expectProblem(await req('PATCH', `/api/admin/suppliers/${s.id}`, { name: null }), 400, 'validation_failed');
    const queries: Record<string, string>[] = [{ limit: '0' }, { limit: '201' }, { offset: '-1' }, { unknown: '1' }];
    for (const query of queries) {
      expectProblem(await call(t.app, 'GET', '/api/admin/brands', { token: owner, query }), 400, 'validation_failed');
    }
  });
});

describe('credentials', () => {
  it('lets any employee and catalog tokens read; only catalog-writing sessions write', async () => {
    const viewer = await employeeToken(t.app, shop, 'viewer');
    const editor = await employeeToken(t.app, shop, 'catalog_editor');
    const read = await apiToken(t.app, shop, ['catalog:read']);
    const write = await apiToken(t.app, shop, ['catalog:write']);
    for (const kind of ['categories', 'brands', 'suppliers']) {
      for (const token of [viewer, editor, read, write]) {
        expect((await req('GET', `/api/admin/${kind}`, undefined, token)).statusCode).toBe(200);
      }
      const made = await req('POST', `/api/admin/${kind}`, { name: `Von Editor ${kind}` }, editor);
      expect(made.statusCode).toBe(201);
      expectProblem(await req('POST', `/api/admin/${kind}`, { name: 'Viewer' }, viewer), 403, 'role_denied');
      expectProblem(await req('POST', `/api/admin/${kind}`, { name: 'Token' }, write), 403, 'scope_denied');
      expectProblem(
        await req('PATCH', `/api/admin/${kind}/${made.data.id}`, { name: 'x' }, viewer),
        403,
        'role_denied',
      );
      expectProblem(await req('DELETE', `/api/admin/${kind}/${made.data.id}`, undefined, write), 403, 'scope_denied');
      expect((await req('DELETE', `/api/admin/${kind}/${made.data.id}`, undefined, editor)).statusCode).toBe(204);
    }
  });
});
