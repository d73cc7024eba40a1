/**
 * A small, realistic demo catalog, created through the same service code as API writes:
 * categories (with a subcategory), brands, a supplier, clothing with size and colour variants,
 * a book, food, and three published digital products.
 */
import type { Ctx } from '../../platform/auth/types.js';
import type { ProductCreateInput } from './catalog.schemas.js';
import { createProduct } from './products.write.js';
import { createBrand, createCategory, createSupplier } from './reference.service.js';

export interface DemoCatalog {
  categoryIds: string[];
  brandIds: string[];
  supplierIds: string[];
  productIds: string[];
}

const img = (name: string) => `https://images.demo.shop/${name}.jpg`;

/** Seeds the demo catalog into `ctx.shopId`; call once on an empty shop. */
export async function seedDemoCatalog(ctx: Ctx): Promise<DemoCatalog> {
  const kleidung = await createCategory(ctx, { name: 'Bekleidung', description: 'Shirts, Pullover und mehr' });
  const shirts = await createCategory(ctx, { name: 'T-Shirts', parent_id: kleidung.id });
  const buecher = await createCategory(ctx, { name: 'Bücher' });
  const lebensmittel = await createCategory(ctx, { name: 'Lebensmittel' });
  const digital = await createCategory(ctx, { name: 'Digitale Produkte' });

  const nordwind = await createBrand(ctx, { name: 'Nordwind', description: 'Nachhaltige Basics aus Bio-Baumwolle' });
  const alpenkost = await createBrand(ctx, { name: 'Alpenkost', description: 'Feinkost aus den Alpen' });
  const grosshandel = await createSupplier(ctx, {
    name: 'Textil Großhandel Süd GmbH',
    email: 'einkauf@textil-sued.example',
    phone: '+49 89 1234567',
  });

  const sizes = ['S', 'M', 'L'];
  const products: ProductCreateInput[] = [
    {
      name: 'Basic T-Shirt Bio-Baumwolle',
      sku: 'TS-BASIC',
      status: 'published',
      base_price_cents: 1999,
      cost_price_cents: 650,
      category_id: shirts.id,
      brand_id: nordwind.id,
      supplier_id: grosshandel.id,
      short_description: 'Weiches T-Shirt aus 100 % Bio-Baumwolle',
      description: 'Klassischer Rundhals-Schnitt, GOTS-zertifiziert, bei 40 °C waschbar.',
      options: [{ name: 'Größe', values: sizes }],
      variants: sizes.map((s, i) => ({
        sku: `TS-BASIC-${s}`,
        option_values: { Größe: s },
        stock_quantity: 20 + i * 5,
        ...(s === 'L' ? { price_cents: 2199 } : {}),
      })),
      images: [
        { url: img('tshirt-front'), alt: 'Basic T-Shirt, Vorderseite' },
        { url: img('tshirt-back'), alt: 'Basic T-Shirt, Rückseite' },
      ],
    },
    {
      name: 'Kapuzenpullover Nordwind',
      sku: 'HD-NORD',
      status: 'published',
      base_price_cents: 5990,
      cost_price_cents: 2100,
      category_id: kleidung.id,
      brand_id: nordwind.id,
      supplier_id: grosshandel.id,
      short_description: 'Warmer Hoodie mit Känguru-Tasche',
      options: [
        { name: 'Größe', values: ['M', 'L'] },
        { name: 'Farbe', values: ['Schwarz', 'Grau'] },
      ],
      variants: ['M', 'L'].flatMap((size) =>
        ['Schwarz', 'Grau'].map((color) => ({
          sku: `HD-NORD-${size}-${color === 'Schwarz' ? 'SW' : 'GR'}`,
          option_values: { Größe: size, Farbe: color },
          stock_quantity: 8,
        })),
      ),
      images: [
        { url: img('hoodie-schwarz'), alt: 'Hoodie in Schwarz', variant_index: 0 },
        { url: img('hoodie-grau'), alt: 'Hoodie in Grau', variant_index: 1 },
      ],
    },
    {
      name: 'Kochen mit Käse – Das Alpenkochbuch',
      sku: 'BK-KAESE',
      status: 'published',
      tax_class: 'books',
      base_price_cents: 2800,
      category_id: buecher.id,
      stock_quantity: 40,
      short_description: 'Hardcover, 240 Seiten',
    },
    {
      name: 'Handbuch Gartenbau',
      sku: 'BK-GARTEN',
      status: 'draft',
      tax_class: 'books',
      base_price_cents: 1995,
      category_id: buecher.id,
      stock_quantity: 12,
    },
    {
      name: 'Bergkäse 12 Monate gereift, 500 g',
      sku: 'LM-BERGKAESE',
      status: 'published',
      tax_class: 'food',
      base_price_cents: 1290,
      cost_price_cents: 720,
      category_id: lebensmittel.id,
      brand_id: alpenkost.id,
      stock_quantity: 30,
    },
    {
      name: 'E-Book: Einstieg in die Fotografie',
      sku: 'DG-EBOOK-FOTO',
      status: 'published',
      tax_class: 'books',
      is_digital: true,
      base_price_cents: 1499,
      category_id: digital.id,
      short_description: 'PDF und EPUB, 180 Seiten',
    },
    {
      name: 'Online-Kurs: Brot backen wie ein Profi',
      sku: 'DG-KURS-BROT',
      status: 'published',
      is_digital: true,
      base_price_cents: 7900,
      category_id: digital.id,
      short_description: '12 Video-Lektionen mit lebenslangem Zugang',
    },
    {
      name: 'Software-Lizenz Rechnungsprofi (1 Jahr)',
      sku: 'DG-LIZENZ-RP',
      status: 'published',
      is_digital: true,
      // Licence keys are a limited supply, so stock is tracked for this digital product.
      track_stock: true,
      stock_quantity: 100,
      base_price_cents: 4900,
      category_id: digital.id,
    },
  ];

  const productIds: string[] = [];
  for (const p of products) productIds.push((await createProduct(ctx, p)).id);
  return {
    categoryIds: [kleidung.id, shirts.id, buecher.id, lebensmittel.id, digital.id],
    brandIds: [nordwind.id, alpenkost.id],
    supplierIds: [grosshandel.id],
    productIds,
  };
}
