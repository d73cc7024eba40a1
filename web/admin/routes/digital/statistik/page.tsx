/**
 * Subscription statistics: the counts and MRR right now (GET …/abos/statistik) and, for the range
 * in the URL (from/to, default the last twelve months; at most 400 days), the history the API
 * computes from the stored events (GET …/abos/statistik/verlauf): MRR per currency per day, new /
 * cancelled / ended per month, and what became of the trials started in the range.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useFormat } from '../../../../shared/format.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { LOCALES, useDictionary, useLanguage, useT } from '../../../../shared/i18n/index.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { useTitle } from '../../../shell.js';
import { DigitalGate } from '../gate.js';
import { digitalText } from '../i18n.js';
import { defaultRange, verlaufQuery } from '../queries.js';
import { ABO_TEST_FILTERS, statistikRoute } from '../routes.js';
import { BarChart, LineChart, StackChart } from './charts.js';

export function StatistikPage() {
  const s = useDictionary(digitalText);
  useTitle(s.statistik.title);
  return (
    <DigitalGate title={s.statistik.title}>
      <Statistik />
    </DigitalGate>
  );
}

function Statistik() {
  const t = useT();
  const s = useDictionary(digitalText);
  const f = useFormat();
  const language = useLanguage();
  const search = statistikRoute.useSearch();
  const navigate = useNavigate({ from: statistikRoute.fullPath });
  const range = defaultRange(search);
  const verlauf = useQuery({ ...verlaufQuery({ ...range, test: search.test }), placeholderData: keepPreviousData });
  const now = $api.useQuery('get', '/api/admin/digital/abos/statistik', {
    params: { query: { test: search.test } },
  });
  const problem = verlauf.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['from', 'to'], t);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    void navigate({
      search: {
        from: v.from || undefined,
        to: v.to || undefined,
        test: (v.test || undefined) as (typeof ABO_TEST_FILTERS)[number] | undefined,
      },
    });
  };

  const monthLabel = (month: string) =>
    new Intl.DateTimeFormat(LOCALES[language], { month: 'short', year: '2-digit', timeZone: 'UTC' }).format(
      new Date(`${month}-01T00:00:00Z`),
    );
  const dayLabel = (day: string) =>
    new Intl.DateTimeFormat(LOCALES[language], { dateStyle: 'medium', timeZone: 'UTC' }).format(
      new Date(`${day}T00:00:00Z`),
    );
  const data = verlauf.data;
  const months = data?.months ?? [];
  const sum = (k: 'new' | 'cancelled' | 'churned') => months.reduce((a, m) => a + m[k], 0);
  const trials = data?.trials;
  return (
    <div className="page statistik-page">
      <div className="page-head">
        <h1>{s.statistik.title}</h1>
      </div>
      <search aria-label={s.statistik.range}>
        <form className="filters" onSubmit={onSubmit} key={`${range.from}|${range.to}|${search.test ?? ''}`} noValidate>
          <div className="field">
            <label htmlFor="stat-from">{s.statistik.from}</label>
            <input
              id="stat-from"
              name="from"
              type="date"
              defaultValue={range.from}
              aria-invalid={errors.fields.from ? true : undefined}
              aria-describedby={errors.fields.from ? 'stat-from-error' : undefined}
            />
            {errors.fields.from ? (
              <span className="field-error" id="stat-from-error">
                {errors.fields.from}
              </span>
            ) : null}
          </div>
          <div className="field">
            <label htmlFor="stat-to">{s.statistik.to}</label>
            <input
              id="stat-to"
              name="to"
              type="date"
              defaultValue={range.to}
              aria-invalid={errors.fields.to ? true : undefined}
              aria-describedby={`stat-range-hint${errors.fields.to ? ' stat-to-error' : ''}`}
            />
            <span className="hint" id="stat-range-hint">
              {s.statistik.rangeHint}
            </span>
            {errors.fields.to ? (
              <span className="field-error" id="stat-to-error">
                {errors.fields.to}
              </span>
            ) : null}
          </div>
          <div className="field">
            <label htmlFor="stat-test">{s.statistik.test}</label>
            <select id="stat-test" name="test" defaultValue={search.test ?? ''}>
              {ABO_TEST_FILTERS.map((v) => (
                <option key={v} value={v === 'alle' ? '' : v}>
                  {s.abos.testFilters[v]}
                </option>
              ))}
            </select>
          </div>
          <div className="filter-actions">
            <button type="submit" className="primary">
              {s.statistik.apply}
            </button>
          </div>
        </form>
      </search>
      {problem && Object.keys(errors.fields).length === 0 ? <ProblemAlert problem={problem} /> : null}

      {now.data ? (
        <section aria-labelledby="stat-now-h" className="panel">
          <h2 id="stat-now-h">{s.statistik.now}</h2>
          <dl className="stat-tiles">
            {(['laufend', 'testzeit', 'zahlung_offen', 'gekuendigt', 'beendet'] as const).map((k) => (
              <div key={k} className="stat-tile">
                <dt>{s.statistik[k]}</dt>
                <dd>{f.number(now.data[k])}</dd>
              </div>
            ))}
            {now.data.mrr_by_currency.map((m) => (
              <div key={m.currency} className="stat-tile">
                <dt>MRR {m.currency}</dt>
                <dd>{f.money(m.mrr_cents, m.currency)}</dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}

      {data ? (
        <div aria-busy={verlauf.isFetching || undefined}>
          <section aria-labelledby="stat-mrr-h" className="panel">
            <h2 id="stat-mrr-h">{s.statistik.mrr}</h2>
            {data.mrr.map((series) => {
              const values = series.days.map((d) => d.mrr_cents);
              const money = (v: number) => f.money(v, series.currency);
              return (
                <LineChart
                  key={series.currency}
                  title={s.statistik.mrrChart(series.currency)}
                  summary={
                    series.days.length === 0
                      ? s.statistik.noData
                      : s.statistik.mrrSummary(
                          series.currency,
                          money(values[0] ?? 0),
                          money(values.at(-1) ?? 0),
                          money(Math.max(0, ...values)),
                        )
                  }
                  points={series.days.map((d) => ({ label: dayLabel(d.date), value: d.mrr_cents }))}
                  format={(v) => f.money(Math.round(v), series.currency)}
                  table={
                    <table className="data">
                      <caption className="visually-hidden">{s.statistik.mrrChart(series.currency)}</caption>
                      <thead>
                        <tr>
                          <th scope="col">{s.statistik.date}</th>
                          <th scope="col" className="num">
                            MRR
                          </th>
                          <th scope="col" className="num">
                            {s.statistik.paying}
                          </th>
                        </tr>
                      </thead>
                      <tbody>
                        {series.days.map((d) => (
                          <tr key={d.date}>
                            <th scope="row">{dayLabel(d.date)}</th>
                            <td className="num">{money(d.mrr_cents)}</td>
                            <td className="num">{f.number(d.paying)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  }
                />
              );
            })}
          </section>

          <section aria-labelledby="stat-months-h" className="panel">
            <h2 id="stat-months-h">{s.statistik.months}</h2>
            <BarChart
              title={s.statistik.months}
              summary={s.statistik.monthsSummary(sum('new'), sum('cancelled'), sum('churned'))}
              series={[
                { name: s.statistik.new, className: 'bar-new' },
                { name: s.statistik.cancelled, className: 'bar-cancelled' },
                { name: s.statistik.churned, className: 'bar-churned' },
              ]}
              groups={months.map((m) => ({ label: monthLabel(m.month), values: [m.new, m.cancelled, m.churned] }))}
              table={
                <table className="data">
                  <caption className="visually-hidden">{s.statistik.months}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{s.statistik.month}</th>
                      <th scope="col" className="num">
                        {s.statistik.new}
                      </th>
                      <th scope="col" className="num">
                        {s.statistik.cancelled}
                      </th>
                      <th scope="col" className="num">
                        {s.statistik.churned}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {months.map((m) => (
                      <tr key={m.month}>
                        <th scope="row">{monthLabel(m.month)}</th>
                        <td className="num">{m.new}</td>
                        <td className="num">{m.cancelled}</td>
                        <td className="num">{m.churned}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              }
            />
          </section>

          {trials ? (
            <section aria-labelledby="stat-trials-h" className="panel">
              <h2 id="stat-trials-h">{s.statistik.trials}</h2>
              <StackChart
                title={s.statistik.trials}
                summary={
                  trials.started === 0
                    ? s.statistik.noTrials
                    : `${s.statistik.trialsSummary(trials.started, trials.converted)} ${s.statistik.conversionRate}: ${f.percent(trials.converted / trials.started)}.`
                }
                parts={[
                  { name: s.statistik.trialConverted, value: trials.converted, className: 'bar-new' },
                  { name: s.statistik.trialIn, value: trials.in_trial, className: 'bar-cancelled' },
                  { name: s.statistik.trialEnded, value: trials.ended_without_payment, className: 'bar-churned' },
                ]}
                table={
                  <table className="data">
                    <caption className="visually-hidden">{s.statistik.trials}</caption>
                    <tbody>
                      <tr>
                        <th scope="row">{s.statistik.trialStarted}</th>
                        <td className="num">{trials.started}</td>
                      </tr>
                      <tr>
                        <th scope="row">{s.statistik.trialConverted}</th>
                        <td className="num">{trials.converted}</td>
                      </tr>
                      <tr>
                        <th scope="row">{s.statistik.trialIn}</th>
                        <td className="num">{trials.in_trial}</td>
                      </tr>
                      <tr>
                        <th scope="row">{s.statistik.trialEnded}</th>
                        <td className="num">{trials.ended_without_payment}</td>
                      </tr>
                    </tbody>
                  </table>
                }
              />
            </section>
          ) : null}
        </div>
      ) : verlauf.isPending ? (
        <p className="muted">{t.common.loading}</p>
      ) : null}
    </div>
  );
}
