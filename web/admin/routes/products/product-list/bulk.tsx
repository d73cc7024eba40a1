/**
 * The bulk action bar: one action for the selected products through POST /api/products/bulk
 * (each product its own write under the role and the write policy), confirmed in a dialog, with
 * an Idempotency-Key (a double click runs once), busy while it runs, then the per-product results:
 * which were refused and why.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { components, paths } from '../../../../../clients/typescript/schema.js';
import { $api, type ApiProblem, type ErrorCode, idempotencyKey } from '../../../../shared/api.js';
import { useErrorMessage, useLanguage, useT } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { ReferenceSearch } from '../reference-search.js';
import { type ReferenceKind, useChannelOptions, useReferencePicker } from '../shared.js';

export const BULK_ACTIONS = [
  'publish',
  'archive',
  'set_category',
  'set_brand',
  'set_supplier',
  'add_to_channel',
  'remove_from_channel',
] as const;
type BulkAction = (typeof BULK_ACTIONS)[number];
type BulkResult = {
  results: (
    | { id: string; ok: true }
    | { id: string; ok: false; code: string; detail: string; errors?: components['schemas']['Problem']['errors'] }
  )[];
  succeeded: number;
  failed: number;
};

type BulkBody = paths['/api/products/bulk']['post']['requestBody']['content']['application/json'];

const CLEAR = '__clear__';

export function BulkBar({
  ids,
  names,
  onDone,
  onClear,
}: {
  ids: string[];
  names: Record<string, string>;
  onDone: () => void;
  onClear: () => void;
}) {
  const t = useT();
  const message = useErrorMessage();
  const language = useLanguage();
  const queryClient = useQueryClient();
  const channels = useChannelOptions();
  const [action, setAction] = useState<BulkAction>('publish');
  const [target, setTarget] = useState('');
  const kind: ReferenceKind =
    action === 'set_brand' ? 'brands' : action === 'set_supplier' ? 'suppliers' : 'categories';
  const picker = useReferencePicker(kind, target === CLEAR ? null : target);
  const [confirming, setConfirming] = useState(false);
  const [key, setKey] = useState(idempotencyKey);
  const [result, setResult] = useState<{ data: BulkResult; names: Record<string, string> } | null>(null);
  const run = $api.useMutation('post', '/api/products/bulk', {
    onSuccess: async (data) => {
      setConfirming(false);
      setResult({ data: data as BulkResult, names });
      setKey(idempotencyKey());
      toast(t.products.bulkResult(data.succeeded, data.failed), data.failed ? 'error' : 'info');
      onDone();
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/products'] });
    },
    onError: () => setConfirming(false),
  });

  const targets: { id: string; name: string }[] | null =
    action === 'set_category' || action === 'set_brand' || action === 'set_supplier'
      ? picker.options
      : action === 'add_to_channel' || action === 'remove_from_channel'
        ? channels
        : null;
  const clearable = action.startsWith('set_');
  const targetName = target === CLEAR ? t.products.clearValue : (targets?.find((x) => x.id === target)?.name ?? '');
  const ready = ids.length > 0 && (targets === null || target !== '');

  const submit = () => {
    const value = target === CLEAR ? null : target;
    const body: BulkBody = {
      ids,
      action,
      ...(action === 'set_category' ? { category_id: value } : {}),
      ...(action === 'set_brand' ? { brand_id: value } : {}),
      ...(action === 'set_supplier' ? { supplier_id: value } : {}),
      ...(action === 'add_to_channel' || action === 'remove_from_channel' ? { channel_id: target } : {}),
    };
    run.mutate({ body, headers: { 'Idempotency-Key': key } });
  };

  return (
    <section className="bulk-bar panel" aria-labelledby="bulk-h" aria-busy={run.isPending || undefined}>
      <h2 id="bulk-h" className="visually-hidden">
        {t.products.bulkTitle}
      </h2>
      <p className="bulk-count" aria-live="polite">
        {t.products.selected(ids.length)}
      </p>
      {ids.length > 0 ? (
        <form
          className="bulk-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (ready) setConfirming(true);
          }}
        >
          <div className="field">
            <label htmlFor="bulk-action">{t.products.bulkAction}</label>
            <select
              id="bulk-action"
              value={action}
              onChange={(e) => {
                setAction(e.currentTarget.value as BulkAction);
                setTarget('');
              }}
            >
              {BULK_ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {t.products.actions[a]}
                </option>
              ))}
            </select>
          </div>
          {targets ? (
            <div className="field">
              <label htmlFor="bulk-target">{t.products.bulkTarget}</label>
              <select id="bulk-target" value={target} onChange={(e) => setTarget(e.currentTarget.value)} required>
                <option value="">{t.products.chooseTarget}</option>
                {clearable ? <option value={CLEAR}>{t.products.clearValue}</option> : null}
                {targets.map((x) => (
                  <option key={x.id} value={x.id}>
                    {x.name}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          {clearable ? <ReferenceSearch id="bulk-target-search" label={t.products.bulkTarget} picker={picker} /> : null}
          <div className="filter-actions">
            <button type="submit" className="primary" disabled={!ready || run.isPending}>
              {run.isPending ? t.products.bulkRunning : t.products.bulkApply}
            </button>
            <button type="button" onClick={onClear}>
              {t.products.clearSelection}
            </button>
          </div>
        </form>
      ) : null}
      {run.error ? <ProblemAlert problem={run.error as ApiProblem} /> : null}
      {result ? (
        <div className="bulk-result" role="status">
          <h3>{t.products.bulkResultTitle}</h3>
          <p>{t.products.bulkResult(result.data.succeeded, result.data.failed)}</p>
          {result.data.failed > 0 ? (
            <table className="data">
              <caption className="visually-hidden">{t.products.bulkResultTitle}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.products.bulkFailedProduct}</th>
                  <th scope="col">{t.products.bulkReason}</th>
                </tr>
              </thead>
              <tbody>
                {result.data.results.map((r) =>
                  r.ok ? null : (
                    <tr key={r.id}>
                      <th scope="row">{result.names[r.id] ?? r.id}</th>
                      <td>
                        {message(r.code as ErrorCode)}
                        {/* the API's detail is English: shown beside the English message only */}
                        {language === 'en' && r.detail ? <span className="muted block small">{r.detail}</span> : null}
                        {r.errors?.length ? (
                          <ul className="small">
                            {r.errors.map((e) => (
                              <li key={e.path}>
                                <code>{e.path.replace(/^\/body\//, '')}</code>: {e.message}
                              </li>
                            ))}
                          </ul>
                        ) : null}
                      </td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          ) : null}
        </div>
      ) : null}
      <Dialog
        open={confirming}
        title={t.products.actions[action]}
        onClose={() => setConfirming(false)}
        confirm={{ label: t.products.actions[action], busy: run.isPending, onConfirm: submit }}
      >
        <p>{t.products.bulkConfirm(t.products.actions[action], ids.length, targetName)}</p>
      </Dialog>
    </section>
  );
}
