/**
 * Create and edit a product: the fields of the spec's product, options and variants (the complete
 * list on save), images (a URL, or a file uploaded through POST /api/admin/uploads), and, once the
 * product exists, its channel listings. A refusal (400, or 403 policy_denied) is shown at the field
 * its errors[].path names. A role that may not write sees the same form, disabled.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, Fragment, type ReactNode, useState } from 'react';
import { $api, type ApiProblem, client } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { fieldErrors } from '../../../../shared/forms.js';
import { useErrorMessage, useLanguage, useT } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { PRODUCT_STATUSES, productRoute } from '../../../router.js';
import { useTitle } from '../../../shell.js';
import { ReferenceSearch } from '../reference-search.js';
import { useReferencePickers } from '../shared.js';
import { CheckField, SelectField, TextAreaField } from './controls.js';
import { bodyOf, type Draft, draftOf, newKey, type Product } from './draft.js';
import { Listings } from './listings.js';

export function ProductNewPage() {
  const t = useT();
  useTitle(t.products.newTitle);
  return <ProductForm product={null} />;
}

export function ProductEditPage() {
  const t = useT();
  const { id } = productRoute.useParams();
  const query = $api.useQuery('get', '/api/admin/products/{id}', { params: { path: { id } } });
  const product = query.data?.product ?? null;
  useTitle(product ? t.products.editTitle(product.name) : t.products.title);
  if (query.error) {
    return (
      <div className="page">
        <BackLink />
        <ProblemAlert problem={query.error as ApiProblem} />
      </div>
    );
  }
  if (!product) return <p className="muted">{t.common.loading}</p>;
  return (
    <>
      {/* a saved product resets the form to what the server stored */}
      <ProductForm key={product.updated_at} product={product} />
    </>
  );
}

function BackLink() {
  const t = useT();
  return (
    <p>
      <Link to="/products" search={{ page: 1, limit: 25 }}>
        ← {t.products.back}
      </Link>
    </p>
  );
}

const TAX_CLASSES = ['standard', 'food', 'books'] as const;

/** What only a role that may write sees (add and remove rows, upload). */
function WriteOnly({ show, children }: { show: boolean; children: ReactNode }) {
  return show ? children : null;
}

function ProductForm({ product }: { product: Product | null }) {
  const t = useT();
  const language = useLanguage();
  const message = useErrorMessage();
  const can = useCan();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(product, language));
  const refs = useReferencePickers({
    categories: draft.category_id,
    brands: draft.brand_id,
    suppliers: draft.supplier_id,
  });
  const [dirty, setDirty] = useState(false);
  const [local, setLocal] = useState<Record<string, string>>({});
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const mayWrite = product ? can('PATCH /api/products/{id}') : can('POST /api/products');

  // a field changed since the last save shows no stale server error
  const [edited, setEdited] = useState<Set<string>>(new Set());
  const set = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setDirty(true);
    setEdited((e) => new Set([...e, ...Object.keys(patch)]));
  };

  const save = $api.useMutation('post', '/api/products');
  const update = $api.useMutation('patch', '/api/products/{id}');
  const remove = $api.useMutation('delete', '/api/products/{id}');
  const problem = (product ? update.error : save.error) as ApiProblem | null;
  const busy = save.isPending || update.isPending;

  const names = [
    ...draft.variants.flatMap((_, i) =>
      ['sku', 'price_cents', 'stock_quantity', 'title', 'option_values', 'is_default'].map((f) => `variants.${i}.${f}`),
    ),
    ...draft.images.flatMap((_, i) => ['url', 'alt'].map((f) => `images.${i}.${f}`)),
    ...draft.options.flatMap((_, i) => [`options.${i}.name`, `options.${i}.values`]),
    'name',
    'slug',
    'sku',
    'description',
    'short_description',
    'status',
    'base_price_cents',
    'cost_price_cents',
    'tax_class',
    'is_digital',
    'track_stock',
    'stock_quantity',
    'category_id',
    'brand_id',
    'supplier_id',
    'vendor_id',
    'options',
    'variants',
    'images',
  ];
  const server = fieldErrors(problem, names, t);
  const EDIT_KEY: Record<string, string> = { base_price_cents: 'base_price', cost_price_cents: 'cost_price' };
  const err = (name: string): string | undefined => {
    const root = name.split('.')[0] as string;
    if (edited.has(EDIT_KEY[root] ?? root)) return undefined;
    const text = local[name] ?? server.fields[name];
    return text === 'is already used' ? t.products.alreadyUsed : text;
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const built = bodyOf(draft, { money: t.products.money, wholeNumber: t.products.wholeNumber }, product);
    if (!built.body) {
      setEdited(new Set());
      setLocal(built.errors);
      return;
    }
    setLocal({});
    setEdited(new Set());
    if (product) {
      update.mutate(
        { params: { path: { id: product.id } }, body: built.body },
        {
          onSuccess: async () => {
            toast(t.products.saved);
            setDirty(false);
            await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/products'] });
            await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/products/{id}'] });
            await queryClient.invalidateQueries({ queryKey: ['get', '/api/products/{id}/channels'] });
          },
        },
      );
    } else {
      save.mutate(
        { body: built.body },
        {
          onSuccess: async (created) => {
            toast(t.products.created_);
            await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/products'] });
            await navigate({ to: '/products/$id', params: { id: created.id } });
          },
        },
      );
    }
  };

  const onUpload = async (file: File | undefined) => {
    if (!file) return;
    setUploadError(null);
    setUploading(true);
    try {
      const { data, error } = await client.POST('/api/admin/uploads', {
        body: file as unknown as string,
        bodySerializer: (b: unknown) => b as BodyInit,
        headers: { 'Content-Type': file.type || 'application/octet-stream' },
      });
      if (error || !data) {
        setUploadError(message((error as ApiProblem).code));
        return;
      }
      set({ images: [...draft.images, { key: newKey(), url: data.url, alt: '' }] });
      toast(t.products.uploaded);
    } finally {
      setUploading(false);
    }
  };

  const optionList = draft.options.filter((o) => o.name.trim() !== '');
  const title = product ? t.products.editTitle(product.name) : t.products.newTitle;
  return (
    <div className="page product-edit">
      <BackLink />
      <div className="page-head">
        <h1>{title}</h1>
        {product ? (
          <span className={`badge badge-product-${product.status}`}>{t.products.statuses[product.status]}</span>
        ) : null}
      </div>
      {!mayWrite ? <p className="alert alert-info">{t.products.readOnly}</p> : null}
      {problem ? <ProblemAlert problem={problem} extra={server.other} /> : null}
      <form onSubmit={onSubmit} noValidate aria-label={title}>
        <fieldset className="plain" disabled={!mayWrite}>
          <fieldset className="panel form-grid">
            <legend>{t.products.basics}</legend>
            <Field
              label={t.products.name}
              name="name"
              value={draft.name}
              onChange={(e) => set({ name: e.currentTarget.value })}
              error={err('name')}
              required
            />
            <Field
              label={t.products.sku}
              name="sku"
              value={draft.sku}
              onChange={(e) => set({ sku: e.currentTarget.value })}
              error={err('sku')}
            />
            <Field
              label={t.products.slug}
              name="slug"
              value={draft.slug}
              hint={t.products.slugHint}
              onChange={(e) => set({ slug: e.currentTarget.value })}
              error={err('slug')}
            />
            <SelectField
              label={t.products.status}
              name="status"
              value={draft.status}
              onChange={(e) => set({ status: e.currentTarget.value as Draft['status'] })}
              error={err('status')}
            >
              {PRODUCT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t.products.statuses[s]}
                </option>
              ))}
            </SelectField>
            <TextAreaField
              label={t.products.shortDescription}
              name="short_description"
              rows={2}
              value={draft.short_description}
              onChange={(e) => set({ short_description: e.currentTarget.value })}
              error={err('short_description')}
            />
            <TextAreaField
              label={t.products.description}
              name="description"
              value={draft.description}
              onChange={(e) => set({ description: e.currentTarget.value })}
              error={err('description')}
            />
          </fieldset>

          <fieldset className="panel form-grid">
            <legend>{t.products.pricing}</legend>
            <Field
              label={t.products.basePrice}
              name="base_price"
              inputMode="decimal"
              hint={t.products.priceHint}
              value={draft.base_price}
              onChange={(e) => set({ base_price: e.currentTarget.value })}
              error={err('base_price_cents')}
            />
            <Field
              label={t.products.costPrice}
              name="cost_price"
              inputMode="decimal"
              value={draft.cost_price}
              onChange={(e) => set({ cost_price: e.currentTarget.value })}
              error={err('cost_price_cents')}
            />
            <SelectField
              label={t.products.taxClass}
              name="tax_class"
              value={draft.tax_class}
              onChange={(e) => set({ tax_class: e.currentTarget.value as Draft['tax_class'] })}
              error={err('tax_class')}
            >
              {TAX_CLASSES.map((c) => (
                <option key={c} value={c}>
                  {t.products.taxClasses[c]}
                </option>
              ))}
            </SelectField>
            <Field
              label={t.products.stockQuantity}
              name="stock_quantity"
              inputMode="numeric"
              value={draft.stock_quantity}
              onChange={(e) => set({ stock_quantity: e.currentTarget.value })}
              error={err('stock_quantity')}
            />
            <div className="checks">
              <CheckField
                label={t.products.isDigital}
                checked={draft.is_digital}
                onChange={(v) => set({ is_digital: v })}
                error={err('is_digital')}
              />
              <CheckField
                label={t.products.trackStock}
                checked={draft.track_stock}
                onChange={(v) => set({ track_stock: v })}
                error={err('track_stock')}
              />
            </div>
          </fieldset>

          <fieldset className="panel form-grid">
            <legend>{t.products.assignment}</legend>
            {(
              [
                ['category_id', t.products.category, refs.categories],
                ['brand_id', t.products.brand, refs.brands],
                ['supplier_id', t.products.supplier, refs.suppliers],
              ] as const
            ).map(([field, label, picker]) => (
              <Fragment key={field}>
                <SelectField
                  label={label}
                  name={field}
                  value={draft[field]}
                  onChange={(e) => set({ [field]: e.currentTarget.value })}
                  error={err(field)}
                >
                  <option value="">{t.products.none}</option>
                  {picker.options.map((o) => (
                    <option key={o.id} value={o.id}>
                      {o.name}
                    </option>
                  ))}
                  {draft[field] && !picker.options.some((o) => o.id === draft[field]) ? (
                    <option value={draft[field]}>{draft[field]}</option>
                  ) : null}
                </SelectField>
                <ReferenceSearch id={`product-${field}-search`} label={label} picker={picker} />
              </Fragment>
            ))}
          </fieldset>

          <fieldset className="panel">
            <legend>{t.products.options}</legend>
            {err('options') ? <p className="field-error">{err('options')}</p> : null}
            {draft.options.length === 0 ? <p className="muted">{t.products.noOptions}</p> : null}
            {draft.options.map((o, i) => (
              <div className="row-fields" key={o.key}>
                <Field
                  label={t.products.optionName}
                  name={`options.${i}.name`}
                  value={o.name}
                  onChange={(e) =>
                    set({
                      options: draft.options.map((x) => (x.key === o.key ? { ...x, name: e.currentTarget.value } : x)),
                    })
                  }
                  error={err(`options.${i}.name`)}
                />
                <Field
                  label={t.products.optionValues}
                  name={`options.${i}.values`}
                  value={o.values}
                  onChange={(e) =>
                    set({
                      options: draft.options.map((x) =>
                        x.key === o.key ? { ...x, values: e.currentTarget.value } : x,
                      ),
                    })
                  }
                  error={err(`options.${i}.values`)}
                />
                <WriteOnly show={mayWrite}>
                  <button
                    type="button"
                    className="remove"
                    onClick={() => set({ options: draft.options.filter((x) => x.key !== o.key) })}
                  >
                    {t.products.removeOption(i + 1)}
                  </button>
                </WriteOnly>
              </div>
            ))}
            <WriteOnly show={mayWrite}>
              <button
                type="button"
                onClick={() => set({ options: [...draft.options, { key: newKey(), name: '', values: '' }] })}
              >
                {t.products.addOption}
              </button>
            </WriteOnly>
          </fieldset>

          <fieldset className="panel">
            <legend>{t.products.variants}</legend>
            <p className="muted small">{t.products.variantsHint}</p>
            {err('variants') ? <p className="field-error">{err('variants')}</p> : null}
            {draft.variants.length === 0 ? <p className="muted">{t.products.noVariants}</p> : null}
            {draft.variants.map((v, i) => {
              const change = (patch: Partial<typeof v>) =>
                set({ variants: draft.variants.map((x) => (x.key === v.key ? { ...x, ...patch } : x)) });
              return (
                <fieldset className="variant" key={v.key}>
                  <legend>{v.title || t.products.variant(i + 1)}</legend>
                  <div className="row-fields">
                    <Field
                      label={t.products.variantTitle}
                      name={`variants.${i}.title`}
                      value={v.title}
                      onChange={(e) => change({ title: e.currentTarget.value })}
                      error={err(`variants.${i}.title`)}
                    />
                    <Field
                      label={t.products.sku}
                      name={`variants.${i}.sku`}
                      value={v.sku}
                      onChange={(e) => change({ sku: e.currentTarget.value })}
                      error={err(`variants.${i}.sku`)}
                    />
                    <Field
                      label={t.products.variantPrice}
                      name={`variants.${i}.price`}
                      inputMode="decimal"
                      value={v.price}
                      onChange={(e) => change({ price: e.currentTarget.value })}
                      error={err(`variants.${i}.price_cents`)}
                    />
                    <Field
                      label={t.products.variantStock}
                      name={`variants.${i}.stock`}
                      inputMode="numeric"
                      value={v.stock}
                      onChange={(e) => change({ stock: e.currentTarget.value })}
                      error={err(`variants.${i}.stock_quantity`)}
                    />
                    {optionList.map((o) => (
                      <SelectField
                        key={o.key}
                        label={o.name}
                        value={v.option_values[o.name] ?? ''}
                        onChange={(e) =>
                          change({ option_values: { ...v.option_values, [o.name]: e.currentTarget.value } })
                        }
                        error={err(`variants.${i}.option_values`)}
                      >
                        <option value="">{t.products.none}</option>
                        {o.values
                          .split(',')
                          .map((x) => x.trim())
                          .filter(Boolean)
                          .map((x) => (
                            <option key={x} value={x}>
                              {x}
                            </option>
                          ))}
                      </SelectField>
                    ))}
                    <div className="field field-check">
                      <input
                        type="radio"
                        id={`default-${v.key}`}
                        name="default_variant"
                        checked={draft.default_variant === v.key}
                        onChange={() => set({ default_variant: v.key })}
                      />
                      <label htmlFor={`default-${v.key}`}>{t.products.variantDefault}</label>
                    </div>
                    <WriteOnly show={mayWrite}>
                      <button
                        type="button"
                        className="remove"
                        onClick={() => set({ variants: draft.variants.filter((x) => x.key !== v.key) })}
                      >
                        {t.products.removeVariant(i + 1)}
                      </button>
                    </WriteOnly>
                  </div>
                </fieldset>
              );
            })}
            <WriteOnly show={mayWrite}>
              <button
                type="button"
                onClick={() => {
                  const key = newKey();
                  set({
                    variants: [
                      ...draft.variants,
                      { key, title: '', sku: '', price: '', stock: '0', option_values: {} },
                    ],
                    default_variant: draft.default_variant || key,
                  });
                }}
              >
                {t.products.addVariant}
              </button>
            </WriteOnly>
          </fieldset>

          <fieldset className="panel">
            <legend>{t.products.images}</legend>
            {err('images') ? <p className="field-error">{err('images')}</p> : null}
            {draft.images.length === 0 ? <p className="muted">{t.products.noImages}</p> : null}
            {draft.images.map((img, i) => (
              <div className="row-fields image-row" key={img.key}>
                {img.url ? <img src={img.url} alt="" className="thumb" /> : <span className="thumb" />}
                <Field
                  label={`${t.products.imageUrl} (${i + 1})`}
                  name={`images.${i}.url`}
                  type="url"
                  value={img.url}
                  onChange={(e) =>
                    set({
                      images: draft.images.map((x) => (x.key === img.key ? { ...x, url: e.currentTarget.value } : x)),
                    })
                  }
                  error={err(`images.${i}.url`)}
                />
                <Field
                  label={`${t.products.imageAlt} (${i + 1})`}
                  name={`images.${i}.alt`}
                  value={img.alt}
                  onChange={(e) =>
                    set({
                      images: draft.images.map((x) => (x.key === img.key ? { ...x, alt: e.currentTarget.value } : x)),
                    })
                  }
                  error={err(`images.${i}.alt`)}
                />
                <WriteOnly show={mayWrite}>
                  <button
                    type="button"
                    className="remove"
                    onClick={() => set({ images: draft.images.filter((x) => x.key !== img.key) })}
                  >
                    {t.products.removeImage(i + 1)}
                  </button>
                </WriteOnly>
              </div>
            ))}
            <div className="row-fields">
              <WriteOnly show={mayWrite}>
                <button
                  type="button"
                  onClick={() => set({ images: [...draft.images, { key: newKey(), url: '', alt: '' }] })}
                >
                  {t.products.addImageUrl}
                </button>
              </WriteOnly>
              <WriteOnly show={mayWrite}>
                <div className="field">
                  {/* the native control's own text ("Choose File", "No file chosen") follows the
                      browser's language, not the page's: it is hidden inside its label, the button */}
                  <label className="file-button">
                    {t.products.upload}
                    <input
                      id="product-upload"
                      type="file"
                      className="visually-hidden file-input"
                      accept="image/png,image/jpeg,image/gif,image/webp,image/avif"
                      aria-describedby={
                        uploadError ? 'product-upload-hint product-upload-error' : 'product-upload-hint'
                      }
                      aria-invalid={uploadError ? true : undefined}
                      disabled={uploading}
                      onChange={(e) => {
                        void onUpload(e.currentTarget.files?.[0]);
                        e.currentTarget.value = '';
                      }}
                    />
                  </label>
                  <span className="hint" id="product-upload-hint">
                    {t.products.uploadHint}
                  </span>
                  {uploading ? <span className="muted small">{t.products.uploading}</span> : null}
                  {uploadError ? (
                    <span className="field-error" id="product-upload-error" role="alert">
                      {uploadError}
                    </span>
                  ) : null}
                </div>
              </WriteOnly>
            </div>
          </fieldset>
        </fieldset>
        {mayWrite ? (
          <div className="save-bar">
            {dirty ? <span className="muted">{t.products.unsaved}</span> : null}
            <button type="submit" className="primary" disabled={busy} aria-busy={busy || undefined}>
              {busy ? t.products.saving : t.products.save}
            </button>
            {product && can('DELETE /api/products/{id}') ? (
              <button type="button" className="danger" onClick={() => setConfirmDelete(true)}>
                {t.products.deleteProduct}
              </button>
            ) : null}
          </div>
        ) : null}
      </form>
      {product ? <Listings product={product} /> : <p className="panel muted">{t.products.listingsAfterCreate}</p>}
      {product ? (
        <Dialog
          open={confirmDelete}
          title={t.products.deleteProduct}
          onClose={() => setConfirmDelete(false)}
          confirm={{
            label: t.products.deleteProduct,
            danger: true,
            busy: remove.isPending,
            onConfirm: () =>
              remove.mutate(
                { params: { path: { id: product.id } } },
                {
                  onSuccess: async () => {
                    setConfirmDelete(false);
                    toast(t.products.deleted);
                    queryClient.removeQueries({ queryKey: ['get', '/api/admin/products/{id}'] });
                    await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/products'] });
                    await navigate({ to: '/products', search: { page: 1, limit: 25 } });
                  },
                  onError: (p) => {
                    setConfirmDelete(false);
                    toast(message((p as ApiProblem).code), 'error');
                  },
                },
              ),
          }}
        >
          <p>{t.products.confirmDelete(product.name)}</p>
        </Dialog>
      ) : null}
    </div>
  );
}
