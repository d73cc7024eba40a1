/** Routes of the catalog: products (docs/catalog.md), reference records and the token write policy. */
import type { Static, TSchema } from '@sinclair/typebox';
import { configureShop, readCatalog, writeCatalog, writeCatalogSignedIn } from '../../platform/auth/presets.js';
import type { Ctx } from '../../platform/auth/types.js';
import { IdParams } from '../../platform/http/schemas.js';
import { deleteByIdRoute, sendJsonText, type TypedApp } from '../../platform/http/typed-app.js';
import * as S from './catalog.schemas.js';
import { listingRoutes } from './listings.routes.js';
import { getWritePolicy, putWritePolicy } from './policy.service.js';
import { bulkProducts } from './products.bulk.js';
import { getProduct, listProducts } from './products.read.js';
import { createProduct, deleteProduct, updateProduct } from './products.write.js';
import * as ref from './reference.service.js';

const tags = ['catalog'];

interface RefRoutes<Row, Query extends TSchema, Create extends TSchema, Patch extends TSchema> {
  path: string;
  plural: string;
  singular: string;
  schema: TSchema;
  listSchema: TSchema;
  listQuery: Query;
  createBody: Create;
  patchBody: Patch;
  out(row: Row): unknown;
  /** Categories also show their subcategory count. */
  subcategories?: true;
  list(ctx: Ctx, q: Static<Query>): Promise<{ rows: Listed<Row>[]; count: number; limit: number; offset: number }>;
  get(ctx: Ctx, id: string): Promise<Row>;
  /** The body arrives validated against createBody / patchBody. */
  create(ctx: Ctx, body: Static<Create>): Promise<Row>;
  update(ctx: Ctx, id: string, body: Static<Patch>): Promise<Row>;
  remove(ctx: Ctx, id: string): Promise<void>;
}

/** A listed record with how much uses it (undefined: not counted, `counts=false`). */
type Listed<Row> = Row & { productCount: number | undefined; subcategoryCount: number | undefined };

/** The five routes of one kind of reference record. */
function referenceRoutes<Row, Query extends TSchema, Create extends TSchema, Patch extends TSchema>(
  app: TypedApp,
  r: RefRoutes<Row, Query, Create, Patch>,
) {
  app.get(
    r.path,
    {
      config: readCatalog,
      schema: {
        tags,
        summary: `List ${r.plural} by name, each with the number of live products that use it (unless counts=false)`,
        querystring: r.listQuery,
        response: { 200: r.listSchema },
      },
    },
    async (request) => {
      const { rows, ...page } = await r.list(request.ctx, request.query);
      const listed = rows.map((row) => ({
        ...(r.out(row) as object),
        ...(row.productCount === undefined ? {} : { product_count: row.productCount }),
        ...(r.subcategories && row.subcategoryCount !== undefined ? { subcategory_count: row.subcategoryCount } : {}),
      }));
      return { [r.plural]: listed, ...page };
    },
  );
  app.get(
    `${r.path}/:id`,
    {
      config: readCatalog,
      schema: { tags, summary: `Read a ${r.singular}`, params: IdParams, response: { 200: r.schema } },
    },
    async (request) => r.out(await r.get(request.ctx, request.params.id)),
  );
  app.post(
    r.path,
    {
      config: writeCatalogSignedIn,
      schema: { tags, summary: `Create a ${r.singular}`, body: r.createBody, response: { 201: r.schema } },
    },
    async (request, reply) => reply.code(201).send(r.out(await r.create(request.ctx, request.body))),
  );
  app.patch(
    `${r.path}/:id`,
    {
      config: writeCatalogSignedIn,
      schema: {
        tags,
        summary: `Change a ${r.singular}`,
        params: IdParams,
        body: r.patchBody,
        response: { 200: r.schema },
      },
    },
    async (request) => r.out(await r.update(request.ctx, request.params.id, request.body)),
  );
  deleteByIdRoute(
    app,
    `${r.path}/:id`,
    {
      config: writeCatalogSignedIn,
      tags,
      summary: `Delete a ${r.singular}; 409 in_use (naming the count) while live products${r.subcategories ? ' or subcategories' : ''} use it`,
    },
    r.remove,
  );
}

export function catalogRoutes(app: TypedApp): void {
  // ---- products (docs/catalog.md) ----
  app.get(
    '/api/admin/products',
    {
      config: readCatalog,
      schema: {
        tags,
        summary: 'List products (filters, search, sort; newest first by default)',
        querystring: S.ProductListQuery,
        response: { 200: S.ProductList },
      },
    },
    // the list arrives as JSON text (see listProducts) and is sent as it is
    async (request, reply) => sendJsonText(reply, await listProducts(request.ctx, request.query)),
  );

  app.get(
    '/api/admin/products/:id',
    {
      config: readCatalog,
      schema: { tags, summary: 'Read a product', params: IdParams, response: { 200: S.ProductWrapper } },
    },
    async (request) => ({ product: await getProduct(request.ctx, request.params.id) }),
  );

  app.post(
    '/api/products',
    {
      config: writeCatalog,
      schema: {
        tags,
        summary: 'Create a product (token writes are checked against the write policy)',
        body: S.ProductCreate,
        response: { 201: S.ProductSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await createProduct(request.ctx, request.body)),
  );

  app.patch(
    '/api/products/:id',
    {
      config: writeCatalog,
      schema: {
        tags,
        summary: 'Change a product; a given variants or images list replaces the current one',
        params: IdParams,
        body: S.ProductPatch,
        response: { 200: S.ProductSchema },
      },
    },
    async (request) => updateProduct(request.ctx, request.params.id, request.body),
  );

  app.post(
    '/api/products/bulk',
    {
      config: writeCatalog,
      schema: {
        tags,
        summary:
          'One action on up to 200 products, each through its single write (role, write policy, channel restriction) ' +
          'in a transaction of its own; the outcome per product. Honours Idempotency-Key',
        body: S.ProductBulk,
        response: { 200: S.ProductBulkResult },
      },
    },
    async (request) => bulkProducts(request.ctx, request.body),
  );

  deleteByIdRoute(
    app,
    '/api/products/:id',
    {
      config: writeCatalog,
      tags,
      summary: 'Delete a product (soft: it vanishes from reads; its slug and SKUs become free)',
    },
    deleteProduct,
  );

  // ---- channel listings (docs/catalog.md) ----
  listingRoutes(app);

  // ---- reference records ----
  referenceRoutes(app, {
    path: '/api/admin/categories',
    plural: 'categories',
    singular: 'category',
    schema: S.CategorySchema,
    listSchema: S.CategoryList,
    listQuery: S.CategoryListQuery,
    createBody: S.CategoryCreate,
    patchBody: S.CategoryPatch,
    out: ref.categoryOut,
    subcategories: true,
    list: ref.listCategories,
    get: ref.getCategory,
    create: ref.createCategory,
    update: ref.updateCategory,
    remove: ref.deleteCategory,
  });
  referenceRoutes(app, {
    path: '/api/admin/brands',
    plural: 'brands',
    singular: 'brand',
    schema: S.BrandSchema,
    listSchema: S.BrandList,
    listQuery: S.RefListQueryPlain,
    createBody: S.BrandCreate,
    patchBody: S.BrandPatch,
    out: ref.brandOut,
    list: ref.listBrands,
    get: ref.getBrand,
    create: ref.createBrand,
    update: ref.updateBrand,
    remove: ref.deleteBrand,
  });
  referenceRoutes(app, {
    path: '/api/admin/suppliers',
    plural: 'suppliers',
    singular: 'supplier',
    schema: S.SupplierSchema,
    listSchema: S.SupplierList,
    listQuery: S.RefListQueryPlain,
    createBody: S.SupplierCreate,
    patchBody: S.SupplierPatch,
    out: ref.supplierOut,
    list: ref.listSuppliers,
    get: ref.getSupplier,
    create: ref.createSupplier,
    update: ref.updateSupplier,
    remove: ref.deleteSupplier,
  });

  // ---- token write policy ----
  app.get(
    '/api/admin/settings/token-write-policy',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'Which product changes API tokens may make',
        response: { 200: S.WritePolicySchema },
      },
    },
    async (request) => getWritePolicy(request.ctx),
  );

  app.put(
    '/api/admin/settings/token-write-policy',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'Replace the write policy for API tokens',
        body: S.WritePolicyPut,
        response: { 200: S.WritePolicySchema },
      },
    },
    async (request) => putWritePolicy(request.ctx, request.body),
  );
}
