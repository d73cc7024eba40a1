/** A failed call, in the page's language: the message of its code and, for support, the request id. */
import type { ApiProblem } from '../api.js';
import { useErrorMessage, useT } from '../i18n/index.js';

export function ProblemAlert({ problem, extra }: { problem: ApiProblem; extra?: string[] }) {
  const message = useErrorMessage();
  const t = useT();
  return (
    <div className="alert alert-error" role="alert">
      {/* field errors are shown at their fields: here only the hint to look at them */}
      <p>{message(problem.errors?.length ? 'validation_failed' : problem.code)}</p>
      {extra?.length ? (
        <ul>
          {extra.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
      {problem.request_id ? <p className="muted small">{t.common.requestId(problem.request_id)}</p> : null}
    </div>
  );
}
