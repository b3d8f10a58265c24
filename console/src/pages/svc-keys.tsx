// Convention B keys (svc_): list (prefix, creator, created, last used, status), create (name, description, scopes
// at three levels, IP allow-list checked as you type, expiry; the key shown once), revoke behind a confirmation.
import { useState } from 'preact/hooks';
import { describeError, type Clients } from '../api';
import type { WorkspaceInfo } from '../access';
import { parseAllowList } from '../ip';
import { Confirm, Dialog, ErrorMessage, Loading, ScopeChips, SecretOnce, StatusBadge, TimeCell, today, useAsync } from '../ui';
import { creatorLabel, type MemberRow } from '../creators';
import { session } from '../session';

interface SvcKey {
  id: string;
  name: string;
  description: string | null;
  prefix: string;
  last_four: string;
  scopes: string[];
  ip_allow_list: string[];
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
  status: string;
}

interface ScopeInfo {
  scope: string;
  level: 'workspace' | 'module' | 'action';
  description: string;
}

export function SvcKeysPage({ clients, workspace }: { clients: Clients; workspace: WorkspaceInfo }) {
  const [status, setStatus] = useState('');
  const [keys, reload] = useAsync(
    () =>
      clients.workspace.listSvcKeys({
        path: { workspace_id: workspace.id },
        query: { limit: 100, ...(status ? { status: status as 'Active' } : {}) },
      }),
    [workspace.id, status],
  );
  // Only for the creator column: when it cannot be read, creators read as "Former member" rather than failing the page.
  const [members] = useAsync(
    () =>
      clients.partner
        .listMembers({ path: { workspace_id: workspace.id }, query: { limit: 100 } })
        .then((p) => p.data as MemberRow[])
        .catch(() => []),
    [workspace.id],
  );
  const memberRows = members.state === 'ready' ? members.value : [];
  const me = session.accountId();
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState('');
  const [revoking, setRevoking] = useState<SvcKey | null>(null);

  return (
    <section aria-labelledby="page-title">
      <div class="page-head">
        <h1 id="page-title">Service keys</h1>
        <button type="button" class="primary" onClick={() => setCreating(true)}>
          Create service key
        </button>
      </div>
      <p class="muted">
        <code>svc_</code> keys call the workspace API with a bearer header, limited by scopes and optionally by caller address.
      </p>
      <div class="filters">
        <div>
          <label for="svc-status">Status</label>
          <select id="svc-status" value={status} onChange={(e) => setStatus((e.target as HTMLSelectElement).value)}>
            <option value="">All</option>
            <option value="Active">Active</option>
            <option value="Revoked">Revoked</option>
            <option value="Expired">Expired</option>
          </select>
        </div>
      </div>
      {keys.state === 'loading' && <Loading what="service keys" />}
      {keys.state === 'error' && <ErrorMessage message={keys.message} onRetry={reload} />}
      {keys.state === 'ready' && (
        <>
          <div class="table-wrap" tabIndex={0} role="region" aria-label="Table, scrolls sideways">
            <table>
              <caption class="sr-only">Service keys of {workspace.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Prefix</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">IP allow-list</th>
                  <th scope="col">Creator</th>
                  <th scope="col">Created (UTC)</th>
                  <th scope="col">Last used (UTC)</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {(keys.value.items as SvcKey[]).map((k) => (
                  <tr key={k.id} data-key-id={k.id}>
                    <td data-label="Name">
                      {k.name}
                      {k.description && <div class="muted small">{k.description}</div>}
                    </td>
                    <td data-label="Prefix">
                      <code>
                        {k.prefix}…{k.last_four}
                      </code>
                    </td>
                    <td data-label="Scopes">
                      <ScopeChips scopes={k.scopes} />
                    </td>
                    <td data-label="IP allow-list">{k.ip_allow_list.length ? k.ip_allow_list.join(', ') : 'Any address'}</td>
                    <td data-label="Creator" title={k.created_by ?? undefined}>
                      {creatorLabel(k.created_by, me, memberRows)}
                    </td>
                    <TimeCell label="Created" value={k.created_at} />
                    <TimeCell label="Last used" value={k.last_used_at} empty="Never used" />
                    <td data-label="Status">
                      <StatusBadge status={k.status} />
                    </td>
                    <td>
                      {k.status !== 'Revoked' && (
                        <button type="button" class="danger" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>
                          Revoke
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {keys.value.items.length === 0 && <p class="empty">No service keys{status ? ` with status ${status}` : ''}.</p>}
        </>
      )}
      {creating && (
        <CreateSvcKey
          clients={clients}
          workspace={workspace}
          onClose={() => setCreating(false)}
          onCreated={(key) => {
            setCreating(false);
            setSecret(key);
            reload();
          }}
        />
      )}
      {secret && <SecretOnce label="Service key" kept="hash" secret={secret} onClose={() => setSecret('')} />}
      {revoking && (
        <Confirm
          title="Revoke this service key?"
          body={
            <p>
              <strong>{revoking.name}</strong> (
              <code>
                {revoking.prefix}…{revoking.last_four}
              </code>
              ) is refused from the next call, with no grace period. This cannot be undone; replace a lost key by creating a new one.
            </p>
          }
          action="Revoke key"
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await clients.workspace.revokeSvcKey({ path: { workspace_id: workspace.id, key_id: revoking.id } });
            reload();
          }}
        />
      )}
    </section>
  );
}

const levelTitles = { workspace: 'Workspace scopes', module: 'Module scopes', action: 'Action scopes' } as const;

function CreateSvcKey(props: { clients: Clients; workspace: WorkspaceInfo; onClose: () => void; onCreated: (key: string) => void }) {
  const [catalogue, reloadCatalogue] = useAsync(async () => {
    const { data, error } = await props.clients.workspace.raw.GET('/api/v1/scopes');
    if (error || !data) throw new Error('The scope catalogue could not be read.');
    return data.items as ScopeInfo[];
  }, []);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [allowList, setAllowList] = useState('');
  const [expires, setExpires] = useState('');
  const [environment, setEnvironment] = useState<'live' | 'test'>('live');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const ip = parseAllowList(allowList);
  const problems = [
    name.trim() === '' && 'Give the key a name.',
    description.length > 500 && 'The description is longer than 500 characters.',
    scopes.length === 0 && 'Pick at least one scope.',
    expires !== '' && expires < today() && 'The expiry date is in the past.',
  ].filter(Boolean) as string[];
  const toggle = (scope: string) => setScopes((s) => (s.includes(scope) ? s.filter((x) => x !== scope) : [...s, scope]));

  return (
    <Dialog title="Create a service key" onClose={props.onClose} wide>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          if (problems.length > 0 || ip.problems.length > 0) return;
          setBusy(true);
          setError('');
          try {
            const created = await props.clients.workspace.createSvcKey({
              path: { workspace_id: props.workspace.id },
              body: {
                name: name.trim(),
                ...(description.trim() ? { description: description.trim() } : {}),
                scopes: scopes as never,
                ip_allow_list: ip.entries,
                environment,
                ...(expires ? { expires_at: expires } : {}),
              },
            });
            props.onCreated(created.key);
          } catch (err) {
            setError(describeError(err));
            setBusy(false);
          }
        }}
      >
        <label for="svc-name">Name</label>
        <input id="svc-name" value={name} maxLength={100} required onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        <label for="svc-description">Description (optional)</label>
        <textarea
          id="svc-description"
          rows={2}
          maxLength={500}
          value={description}
          onInput={(e) => setDescription((e.target as HTMLTextAreaElement).value)}
        />
        <label for="svc-env">Environment</label>
        <select id="svc-env" value={environment} onChange={(e) => setEnvironment((e.target as HTMLSelectElement).value as 'live')}>
          <option value="live">Live (svc_live_)</option>
          <option value="test">Test (svc_test_)</option>
        </select>

        {catalogue.state === 'loading' && <Loading what="the scope catalogue" />}
        {catalogue.state === 'error' && <ErrorMessage message={catalogue.message} onRetry={reloadCatalogue} />}
        {catalogue.state === 'ready' &&
          (['workspace', 'module', 'action'] as const).map((level) => (
            <fieldset key={level}>
              <legend>{levelTitles[level]}</legend>
              <div class={level === 'action' ? 'scope-groups' : 'scope-row'}>
                {catalogue.value
                  .filter((s) => s.level === level)
                  .map((s) => (
                    <label class="check" key={s.scope} title={s.description}>
                      <input type="checkbox" checked={scopes.includes(s.scope)} onChange={() => toggle(s.scope)} />
                      {s.scope}
                    </label>
                  ))}
              </div>
            </fieldset>
          ))}

        <label for="svc-ips">IP allow-list (optional, one address or CIDR range per line)</label>
        <textarea
          id="svc-ips"
          rows={3}
          value={allowList}
          onInput={(e) => setAllowList((e.target as HTMLTextAreaElement).value)}
          aria-invalid={ip.problems.length > 0}
          aria-describedby="svc-ips-help"
          placeholder={'203.0.113.0/24\n2001:db8::/32'}
        />
        <div id="svc-ips-help" aria-live="polite">
          {ip.problems.length > 0 ? (
            <ul class="field-error">
              {ip.problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          ) : (
            <p class="hint">
              {ip.entries.length
                ? `${ip.entries.length} entr${ip.entries.length === 1 ? 'y' : 'ies'}; other addresses are refused.`
                : 'Empty: any address may use the key.'}
            </p>
          )}
        </div>

        <label for="svc-expires">Expiry date (optional)</label>
        <input
          id="svc-expires"
          type="date"
          min={today()}
          value={expires}
          onInput={(e) => setExpires((e.target as HTMLInputElement).value)}
          aria-describedby="svc-expires-help"
        />
        <p id="svc-expires-help" class="hint">
          Empty: the key never expires. It stops working at the end of the chosen day (UTC).
        </p>

        {problems.length > 0 && (
          <ul class="problems" aria-live="polite">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        )}
        {error && <ErrorMessage message={error} />}
        <div class="actions">
          <button type="button" onClick={props.onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={busy || problems.length > 0 || ip.problems.length > 0}>
            {busy ? 'Creating…' : 'Create service key'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
