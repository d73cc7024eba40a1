/**
 * The product's channel listings, per channel: offered or not, a channel price and a compare-at
 * price, for the product itself and each variant (PATCH /api/products/:id/channels/:channelId,
 * with variant_id for a variant's row), and taking the product out of a channel (DELETE, confirmed).
 * The price that applies comes from the server (effective_price_cents). Refusals at their field.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { $api, type ApiProblem, client } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { fieldMessage } from '../../../../shared/forms.js';
import { useErrorMessage, useLanguage, useT } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { moneyInput, parseMoney, useChannelOptions } from '../shared.js';
import type { Product } from './draft.js';

type Listing = {
  channel_id: string;
  variant_id: string | null;
  is_published: boolean;
  price_cents: number | null;
  compare_at_price_cents: number | null;
  effective_price_cents: number;
};
type Channel = ReturnType<typeof useChannelOptions>[number];

export function Listings({ product }: { product: Product }) {
  const t = useT();
  const channels = useChannelOptions();
  const listings = $api.useQuery('get', '/api/products/{id}/channels', { params: { path: { id: product.id } } });
  return (
    <section className="panel listings" aria-labelledby="listings-h">
      <h2 id="listings-h">{t.products.listings}</h2>
      <p className="muted small">{t.products.listingsHint}</p>
      {channels.length === 0 ? <p className="muted">{t.products.noChannels}</p> : null}
      {listings.data
        ? channels.map((c) => (
            <ChannelListing
              key={`${c.id}-${listings.dataUpdatedAt}`}
              channel={c}
              product={product}
              listings={listings.data.listings.filter((l) => l.channel_id === c.id)}
            />
          ))
        : null}
    </section>
  );
}

interface RowDraft {
  variant_id: string | null;
  label: string;
  published: boolean;
  price: string;
  compare: string;
  current: Listing | undefined;
}

function ChannelListing({ channel, product, listings }: { channel: Channel; product: Product; listings: Listing[] }) {
  const t = useT();
  const f = useFormat();
  const language = useLanguage();
  const message = useErrorMessage();
  const can = useCan();
  const queryClient = useQueryClient();
  const mayWrite = can('PATCH /api/products/{id}/channels/{channelId}');
  const productListing = listings.find((l) => l.variant_id === null);
  const initial = (): RowDraft[] =>
    [
      { variant_id: null, label: t.products.productItself, current: productListing },
      ...product.variants.map((v) => ({
        variant_id: v.id,
        label: v.title || v.sku || v.id,
        current: listings.find((l) => l.variant_id === v.id),
      })),
    ].map((r) => ({
      ...r,
      // a variant without a listing of its own is shown where its product is
      published: r.current ? r.current.is_published : r.variant_id !== null,
      price: moneyInput(r.current?.price_cents, language),
      compare: moneyInput(r.current?.compare_at_price_cents, language),
    }));
  const [rows, setRows] = useState<RowDraft[]>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const listed = productListing !== undefined;

  const change = (i: number, patch: Partial<RowDraft>) =>
    setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  const save = async () => {
    const errs: Record<string, string> = {};
    const writes: {
      i: number;
      body: {
        variant_id?: string;
        is_published?: boolean;
        price_cents?: number | null;
        compare_at_price_cents?: number | null;
      };
    }[] = [];
    rows.forEach((r, i) => {
      const price = parseMoney(r.price);
      const compare = parseMoney(r.compare);
      if (price === undefined) errs[`${i}.price_cents`] = t.products.money;
      if (compare === undefined) errs[`${i}.compare_at_price_cents`] = t.products.money;
      if (price === undefined || compare === undefined) return;
      const body: (typeof writes)[number]['body'] = {};
      const cur = r.current;
      const wasPublished = cur ? cur.is_published : r.variant_id !== null;
      if (r.published !== wasPublished || (!cur && r.variant_id === null && r.published))
        body.is_published = r.published;
      if (price !== (cur?.price_cents ?? null)) body.price_cents = price;
      if (compare !== (cur?.compare_at_price_cents ?? null)) body.compare_at_price_cents = compare;
      if (Object.keys(body).length === 0) return;
      if (r.variant_id) body.variant_id = r.variant_id;
      writes.push({ i, body });
    });
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setBusy(true);
    try {
      // the product's own row first: a variant listing needs the product in the channel
      for (const w of writes) {
        const { error } = await client.PATCH('/api/products/{id}/channels/{channelId}', {
          params: { path: { id: product.id, channelId: channel.id } },
          body: w.body,
        });
        if (error) {
          const p = error as ApiProblem;
          const at: Record<string, string> = {};
          for (const e of p.errors ?? []) {
            const field = e.path.replace(/^\/body\//, '');
            at[`${w.i}.${field}`] = fieldMessage(e.message, t);
          }
          if (Object.keys(at).length === 0) at[`${w.i}.row`] = message(p.code);
          setErrors(at);
          return;
        }
      }
      if (writes.length) toast(t.products.listingSaved(channel.name));
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/products/{id}/channels'] });
    }
  };

  const remove = $api.useMutation('delete', '/api/products/{id}/channels/{channelId}', {
    onSuccess: async () => {
      setConfirmRemove(false);
      toast(t.products.listingRemoved(channel.name));
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/products/{id}/channels'] });
    },
    onError: (p) => {
      setConfirmRemove(false);
      toast(message((p as ApiProblem).code), 'error');
    },
  });

  const headingId = `channel-${channel.id}`;
  return (
    <section className="channel-listing" aria-labelledby={headingId} aria-busy={busy || undefined}>
      <h3 id={headingId}>
        {channel.name} <span className="muted small">({channel.currency})</span>
        {!listed ? <span className="tag">{t.products.notListed}</span> : null}
      </h3>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        noValidate
      >
        <fieldset className="plain" disabled={!mayWrite || busy}>
          <legend className="visually-hidden">{channel.name}</legend>
          <div className="table-wrap">
            <table className="data">
              <thead>
                <tr>
                  <th scope="col">{t.products.listingRow}</th>
                  <th scope="col">{t.products.published}</th>
                  <th scope="col">{t.products.channelPrice(channel.currency)}</th>
                  <th scope="col">{t.products.compareAt(channel.currency)}</th>
                  <th scope="col" className="num">
                    {t.products.effective}
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r, i) => (
                  <tr key={r.variant_id ?? 'product'}>
                    <th scope="row">
                      {r.label}
                      {errors[`${i}.row`] || errors[`${i}.is_published`] || errors[`${i}.variant_id`] ? (
                        <span className="field-error block" role="alert">
                          {errors[`${i}.row`] ?? errors[`${i}.is_published`] ?? errors[`${i}.variant_id`]}
                        </span>
                      ) : null}
                    </th>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`${t.products.published}: ${r.label}`}
                        checked={r.published}
                        onChange={(e) => change(i, { published: e.currentTarget.checked })}
                      />
                    </td>
                    {(['price', 'compare'] as const).map((k) => {
                      const path = `${i}.${k === 'price' ? 'price_cents' : 'compare_at_price_cents'}`;
                      const label =
                        k === 'price'
                          ? t.products.channelPrice(channel.currency)
                          : t.products.compareAt(channel.currency);
                      const errId = `${headingId}-${path.replace('.', '-')}-error`;
                      return (
                        <td key={k}>
                          <input
                            className="money"
                            inputMode="decimal"
                            aria-label={`${label}: ${r.label}`}
                            value={r[k]}
                            aria-invalid={errors[path] ? true : undefined}
                            aria-describedby={errors[path] ? errId : undefined}
                            onChange={(e) => change(i, { [k]: e.currentTarget.value })}
                          />
                          {errors[path] ? (
                            <span className="field-error block" id={errId}>
                              {errors[path]}
                            </span>
                          ) : null}
                        </td>
                      );
                    })}
                    <td className="num">
                      {r.current ? f.money(r.current.effective_price_cents, channel.currency) : t.common.none}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {mayWrite ? (
            <div className="actions">
              <button type="submit" className="primary" aria-busy={busy || undefined}>
                {t.products.saveListing(channel.name)}
              </button>
              {listed && can('DELETE /api/products/{id}/channels/{channelId}') ? (
                <button type="button" className="danger" onClick={() => setConfirmRemove(true)}>
                  {t.products.removeListing(channel.name)}
                </button>
              ) : null}
            </div>
          ) : null}
        </fieldset>
      </form>
      <Dialog
        open={confirmRemove}
        title={t.products.removeListing(channel.name)}
        onClose={() => setConfirmRemove(false)}
        confirm={{
          label: t.products.removeListing(channel.name),
          danger: true,
          busy: remove.isPending,
          onConfirm: () => remove.mutate({ params: { path: { id: product.id, channelId: channel.id } } }),
        }}
      >
        <p>{t.products.confirmRemoveListing(channel.name)}</p>
      </Dialog>
    </section>
  );
}
