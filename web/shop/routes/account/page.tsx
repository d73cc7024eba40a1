/**
 * The customer account area (/shop/konto): signed out, sign-in and registration side by side
 * (registration answers 202 and the page says to check the e-mail); signed in, who it is, the
 * orders (GET /api/customer/orders, paged on the server) and sign-out. The session is the HttpOnly
 * `csid` cookie the API sets; the page never holds the token. Each order shows its final invoices
 * as PDF downloads (GET /api/customer/invoices for the orders shown, then …/:id/pdf).
 */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { paths } from '../../../../clients/typescript/schema.js';
import type { ApiProblem } from '../../../shared/api.js';
import { useFormat } from '../../../shared/format.js';
import { fieldErrors } from '../../../shared/forms.js';
import { useDictionary, useT } from '../../../shared/i18n/index.js';
import { Dialog } from '../../../shared/widgets/Dialog.js';
import { Field } from '../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../shared/widgets/Toasts.js';
import { $store } from '../../api.js';
import { ShopLink } from '../../shell.js';
import { accountText } from './i18n.js';

export function AccountPage() {
  const me = $store.useQuery('get', '/api/customer/me', {}, { retry: false });
  const t = useT();
  if (me.isPending) return <p aria-live="polite">{t.common.loading}</p>;
  return me.data ? (
    <SignedIn email={me.data.customer.email} verified={me.data.customer.email_verified} />
  ) : (
    <SignedOut />
  );
}

function SignedOut() {
  const t = useT();
  const client = useQueryClient();
  const login = $store.useMutation('post', '/api/customer/login');
  const register = $store.useMutation('post', '/api/customer/register');
  const [registered, setRegistered] = useState<string | null>(null);
  const loginProblem = login.error as ApiProblem | null;
  const registerProblem = register.error as ApiProblem | null;
  const regErrors = fieldErrors(registerProblem, ['email', 'password', 'name'], t);

  const onLogin = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = Object.fromEntries(new FormData(e.currentTarget)) as Record<string, string>;
    login.mutate(
      { body: { email: v.email ?? '', password: v.password ?? '' } },
      { onSuccess: () => void client.invalidateQueries() },
    );
  };
  const onRegister = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = Object.fromEntries(new FormData(e.currentTarget)) as Record<string, string>;
    const email = v.email ?? '';
    register.mutate(
      { body: { email, password: v.password ?? '', ...(v.name ? { name: v.name } : {}) } },
      { onSuccess: () => setRegistered(email) },
    );
  };

  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">{t.shopAccount.title}</h1>
      <div className="account-columns">
        <form className="panel" onSubmit={onLogin} aria-labelledby="sign-in-title" noValidate>
          <h2 id="sign-in-title">{t.shopAccount.signInTitle}</h2>
          <p className="muted">{t.shopAccount.signInIntro}</p>
          {loginProblem ? (
            loginProblem.status === 401 ? (
              <p className="alert alert-error" role="alert">
                {t.shopAccount.wrong}
              </p>
            ) : (
              <ProblemAlert problem={loginProblem} />
            )
          ) : null}
          <Field label={t.shopAccount.email} name="email" type="email" autoComplete="email" required />
          <Field
            label={t.shopAccount.password}
            name="password"
            type="password"
            autoComplete="current-password"
            required
          />
          <p className="actions-row start">
            <button type="submit" className="primary" disabled={login.isPending}>
              {t.shopAccount.signIn}
            </button>
            <ShopLink to="/konto/reset-password">{t.shopAccount.forgot}</ShopLink>
          </p>
        </form>
        <form className="panel" onSubmit={onRegister} aria-labelledby="register-title" noValidate>
          <h2 id="register-title">{t.shopAccount.registerTitle}</h2>
          <p className="muted">{t.shopAccount.registerIntro}</p>
          {registered ? (
            <p className="alert alert-info" role="status">
              {t.shopAccount.registered(registered)}
            </p>
          ) : null}
          {registerProblem ? <ProblemAlert problem={registerProblem} extra={regErrors.other} /> : null}
          <Field
            label={t.shopAccount.email}
            name="email"
            type="email"
            autoComplete="email"
            required
            error={regErrors.fields.email}
          />
          <Field label={t.shopAccount.name} name="name" autoComplete="name" error={regErrors.fields.name} />
          <Field
            label={t.shopAccount.newPassword}
            name="password"
            type="password"
            autoComplete="new-password"
            minLength={8}
            required
            error={regErrors.fields.password}
          />
          <button type="submit" className="button" disabled={register.isPending}>
            {t.shopAccount.register}
          </button>
        </form>
      </div>
    </section>
  );
}

function SignedIn({ email, verified }: { email: string; verified: boolean }) {
  const t = useT();
  const f = useFormat();
  const client = useQueryClient();
  const s = useDictionary(accountText);
  const orders = $store.useQuery('get', '/api/customer/orders', { params: { query: { limit: 50, offset: 0 } } });
  // the invoices of the orders shown (one request, GET /api/customer/invoices?order_id=…&order_id=…)
  const orderIds = orders.data?.orders.map((o) => o.id) ?? [];
  const invoices = $store.useQuery(
    'get',
    '/api/customer/invoices',
    { params: { query: { order_id: orderIds, limit: 100, offset: 0 } } },
    { enabled: orderIds.length > 0 },
  );
  const invoicesOf = (orderId: string) => invoices.data?.invoices.filter((i) => i.order_id === orderId) ?? [];
  const logout = $store.useMutation('post', '/api/customer/logout');
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">{t.shopAccount.title}</h1>
      <p className="account-who">
        {t.shopAccount.signedInAs(email)}{' '}
        <button
          type="button"
          className="link-button"
          onClick={() =>
            logout.mutate(
              {},
              {
                onSettled: () => {
                  toast(t.shopAccount.signedOut);
                  void client.resetQueries();
                },
              },
            )
          }
        >
          {t.shopAccount.signOut}
        </button>
      </p>
      {verified ? null : <p className="alert alert-info">{t.shopAccount.unverified}</p>}
      <h2>{t.shopAccount.orders}</h2>
      {orders.error ? <ProblemAlert problem={orders.error} /> : null}
      {orders.data && orders.data.orders.length === 0 ? <p className="empty">{t.shopAccount.noOrders}</p> : null}
      {orders.data?.orders.length ? (
        <table className="cart-table">
          <thead>
            <tr>
              <th scope="col">{t.shopAccount.order}</th>
              <th scope="col">{t.shopAccount.date}</th>
              <th scope="col">{t.shopAccount.status}</th>
              <th scope="col" className="num">
                {t.shopAccount.total}
              </th>
              <th scope="col">{s.invoice}</th>
            </tr>
          </thead>
          <tbody>
            {orders.data.orders.map((o) => (
              <tr key={o.id}>
                <th scope="row">{o.number}</th>
                <td>{f.date(o.created_at)}</td>
                <td>{(t.orders.statuses as Record<string, string>)[o.status] ?? o.status}</td>
                <td className="num">{f.money(o.total_cents, o.currency)}</td>
                <td>
                  <OrderInvoices invoices={invoicesOf(o.id)} loaded={Boolean(invoices.data)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Abos />
    </section>
  );
}

type CustomerInvoice =
  paths['/api/customer/invoices']['get']['responses'][200]['content']['application/json']['invoices'][number];

/** An order's final invoices, each a PDF download (GET /api/customer/invoices/:id/pdf, the session cookie). */
function OrderInvoices({ invoices, loaded }: { invoices: CustomerInvoice[]; loaded: boolean }) {
  const s = useDictionary(accountText);
  if (!loaded) return null;
  if (invoices.length === 0) return <span className="muted">{s.noInvoice}</span>;
  return (
    <ul className="plain-list">
      {invoices.map((i) => (
        <li key={i.id}>
          <a href={`/api/customer/invoices/${encodeURIComponent(i.id)}/pdf`} download>
            {s.invoicePdf(i.number)}
          </a>
          {i.status === 'credited'
            ? ` (${s.credited})`
            : i.status === 'partially_credited'
              ? ` (${s.partiallyCredited})`
              : ''}
        </li>
      ))}
    </ul>
  );
}

type Abo = NonNullable<ReturnType<typeof useAbos>['data']>['abos'][number];
const useAbos = () => $store.useQuery('get', '/api/customer/abos', {});

/**
 * The customer's subscriptions (GET /api/customer/abos) with `kuendigen` at the period end
 * (POST /api/customer/abos/:id/kuendigen), confirmed in a dialog that names the date.
 */
function Abos() {
  const t = useT();
  const f = useFormat();
  const abos = useAbos();
  const client = useQueryClient();
  const [cancelling, setCancelling] = useState<Abo | null>(null);
  const kuendigen = $store.useMutation('post', '/api/customer/abos/{id}/kuendigen');
  if (!abos.data) return abos.error ? <ProblemAlert problem={abos.error} /> : null;
  return (
    <>
      <h2>{t.shopAccount.abos}</h2>
      {abos.data.abos.length === 0 ? <p className="empty">{t.shopAccount.noAbos}</p> : null}
      {abos.data.abos.length ? (
        <table className="cart-table">
          <thead>
            <tr>
              <th scope="col">{t.shopAccount.aboPrice}</th>
              <th scope="col">{t.shopAccount.status}</th>
              <th scope="col">{t.shopAccount.aboPeriodEnd}</th>
              <th scope="col">
                <span className="visually-hidden">{t.shopAccount.kuendigen}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {abos.data.abos.map((a) => (
              <tr key={a.id}>
                <th scope="row">
                  {f.money(a.next_charge_cents ?? a.price_cents, a.currency)}{' '}
                  {t.shop.planInterval(a.interval_count, a.interval_unit)}
                </th>
                <td>
                  {a.cancel_at_period_end
                    ? t.shopAccount.aboEndsAt(f.date(a.endet_am ?? a.current_period_end))
                    : ((t.shopAccount.aboStatuses as Record<string, string>)[a.status] ?? a.status)}
                </td>
                <td>{f.date(a.current_period_end)}</td>
                <td>
                  {!a.cancel_at_period_end && a.status !== 'canceled' ? (
                    <button type="button" className="link-button" onClick={() => setCancelling(a)}>
                      {t.shopAccount.kuendigen}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {kuendigen.error ? <ProblemAlert problem={kuendigen.error as ApiProblem} /> : null}
      <Dialog
        open={cancelling !== null}
        title={t.shopAccount.kuendigenTitle}
        onClose={() => setCancelling(null)}
        confirm={{
          label: t.shopAccount.kuendigenConfirm,
          danger: true,
          busy: kuendigen.isPending,
          onConfirm: () => {
            if (!cancelling) return;
            kuendigen.mutate(
              { params: { path: { id: cancelling.id } }, body: {} },
              {
                onSuccess: (row) => {
                  toast(t.shopAccount.kuendigt(f.date(row.endet_am ?? row.current_period_end)));
                  void client.invalidateQueries();
                },
                onSettled: () => setCancelling(null),
              },
            );
          },
        }}
      >
        <p>{cancelling ? t.shopAccount.kuendigenText(f.date(cancelling.current_period_end)) : ''}</p>
      </Dialog>
    </>
  );
}
