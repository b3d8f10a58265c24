// The svc_ key audit log: requests of the last 30 days, newest first, filtered by key and by status code.
import { useState } from 'preact/hooks';
import type { Clients } from '../api';
import type { WorkspaceInfo } from '../access';
import { ErrorMessage, Loading, TimeCell, useAsync } from '../ui';

export function AuditLogPage({ clients, workspace }: { clients: Clients; workspace: WorkspaceInfo }) {
  const [keyId, setKeyId] = useState('');
  const [statusText, setStatusText] = useState('');
  const status = /^[1-5]\d\d$/.test(statusText) ? Number(statusText) : undefined;
  const statusProblem = statusText !== '' && status === undefined ? 'A status code is three digits, 100 to 599.' : '';
  const [keys] = useAsync(
    () => clients.workspace.listSvcKeys({ path: { workspace_id: workspace.id }, query: { limit: 100 } }),
    [workspace.id],
  );
  const [entries, reload] = useAsync(
    () =>
      clients.workspace.listSvcAuditLog({
        path: { workspace_id: workspace.id },
        query: { limit: 100, ...(keyId ? { key_id: keyId } : {}), ...(status ? { status_code: status } : {}) },
      }),
    [workspace.id, keyId, status],
  );
  const names = new Map(keys.state === 'ready' ? keys.value.items.map((k) => [k.id, `${k.name} (${k.prefix}…${k.last_four})`]) : []);

  return (
    <section aria-labelledby="page-title">
      <div class="page-head">
        <h1 id="page-title">Key audit log</h1>
        <button type="button" onClick={reload}>
          Refresh
        </button>
      </div>
      <p class="muted">Every request made with a service key in the last 30 days: time, caller address, endpoint and status code.</p>
      <div class="filters">
        <div>
          <label for="audit-key">Key</label>
          <select id="audit-key" value={keyId} onChange={(e) => setKeyId((e.target as HTMLSelectElement).value)}>
            <option value="">All keys</option>
            {[...names].map(([id, label]) => (
              <option key={id} value={id}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="audit-status">Status code</label>
          <input
            id="audit-status"
            inputMode="numeric"
            value={statusText}
            onInput={(e) => setStatusText((e.target as HTMLInputElement).value.trim())}
            aria-invalid={statusProblem !== ''}
            aria-describedby="audit-status-help"
            placeholder="e.g. 403"
          />
          <p id="audit-status-help" class={statusProblem ? 'field-error' : 'hint'}>
            {statusProblem || 'Empty: every status.'}
          </p>
        </div>
      </div>
      {entries.state === 'loading' && <Loading what="the audit log" />}
      {entries.state === 'error' && <ErrorMessage message={entries.message} onRetry={reload} />}
      {entries.state === 'ready' && (
        <>
          <div class="table-wrap" tabIndex={0} role="region" aria-label="Table, scrolls sideways">
            <table>
              <caption class="sr-only">Audit log of {workspace.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Time (UTC)</th>
                  <th scope="col">Key</th>
                  <th scope="col">IP</th>
                  <th scope="col">Request</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {entries.value.items.map((e) => (
                  <tr key={e.id}>
                    <TimeCell label="Time" value={e.time} />
                    <td data-label="Key">{names.get(e.key_id) ?? <code>{e.key_id.slice(-8)}</code>}</td>
                    <td data-label="IP">{e.ip}</td>
                    <td data-label="Request">
                      <code>
                        {e.method} {e.endpoint}
                      </code>
                    </td>
                    <td data-label="Status">
                      <span class={`badge ${e.status_code < 400 ? 'active' : 'revoked'}`}>{e.status_code}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {entries.value.items.length === 0 && <p class="empty">No requests match.</p>}
        </>
      )}
    </section>
  );
}
