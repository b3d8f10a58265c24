// Convention A keys (partner API): list, create (name, 1-20 scopes one by one or by preset, optional expiry; the
// key shown once), revoke behind a confirmation. Buttons follow the role's cells; the server checks them again.
import { useState } from 'preact/hooks';
import { scopeCatalogue, scopePresets } from '@chat-platform/partner-sdk';
import { describeError, type Clients } from '../api';
import type { Cells, WorkspaceInfo } from '../access';
import { Confirm, Dialog, ErrorMessage, GatedButton, Loading, ScopeChips, SecretOnce, StatusBadge, TimeCell, today, useAsync } from '../ui';

const externalApiOff = 'External API access is not enabled for this organisation.';

interface Key {
  id: string;
  name: string;
  prefix: string;
  environment: string;
  scopes: string[];
  status: string;
  expired: boolean;
  expires_at: string | null;
  last_used_at: string | null;
}

export function PartnerKeysPage({ clients, workspace, cells }: { clients: Clients; workspace: WorkspaceInfo; cells: Cells }) {
  const [limit, setLimit] = useState(50);
  const [keys, reload] = useAsync(
    () => clients.partner.listApiKeys({ path: { workspace_id: workspace.id }, query: { limit } }),
    [workspace.id, limit],
  );
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState('');
  const [revoking, setRevoking] = useState<Key | null>(null);

  return (
    <section aria-labelledby="page-title">
      <div class="page-head">
        <h1 id="page-title">API keys</h1>
        {cells.create && (
          <GatedButton
            id="create-key"
            label="Create key"
            primary
            reason={
              workspace.external_api_enabled
                ? null
                : `The ${workspace.plan} plan has no external API access; a platform administrator can change the plan.`
            }
            onClick={() => setCreating(true)}
          />
        )}
      </div>
      <p class="muted">
        Keys let software call the partner data API without a login. A key reads and writes the whole workspace within its scopes.
      </p>
      {!workspace.external_api_enabled && (
        <p class="notice" role="note">
          {externalApiOff} Keys work only on a plan that includes the API Keys or the Webhooks module.
        </p>
      )}
      {keys.state === 'loading' && <Loading what="keys" />}
      {keys.state === 'error' && <ErrorMessage message={keys.message} onRetry={reload} />}
      {keys.state === 'ready' && (
        <>
          <div class="table-wrap" tabIndex={0} role="region" aria-label="Table, scrolls sideways">
            <table>
              <caption class="sr-only">API keys of {workspace.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Prefix</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Expires (UTC)</th>
                  <th scope="col">Last used (UTC)</th>
                  <th scope="col">Status</th>
                  {cells.delete && (
                    <th scope="col">
                      <span class="sr-only">Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {(keys.value.data as Key[]).map((k) => (
                  <tr key={k.id} data-key-id={k.id}>
                    <td data-label="Name">{k.name}</td>
                    <td data-label="Prefix">
                      <code>{k.prefix}</code>
                    </td>
                    <td data-label="Scopes">
                      <ScopeChips scopes={k.scopes} />
                    </td>
                    <TimeCell label="Expires" value={k.expires_at} empty="Never" />
                    <TimeCell label="Last used" value={k.last_used_at} empty="Never used" />
                    <td data-label="Status">
                      <StatusBadge status={k.status === 'revoked' ? 'Revoked' : k.expired ? 'Expired' : 'Active'} />
                    </td>
                    {cells.delete && (
                      <td>
                        {k.status !== 'revoked' && (
                          <button type="button" class="danger" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>
                            Revoke
                          </button>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {keys.value.data.length === 0 && <p class="empty">No keys yet.</p>}
          {keys.value.has_more && (
            <button type="button" onClick={() => setLimit(Math.min(100, limit + 50))} disabled={limit >= 100}>
              Show more
            </button>
          )}
        </>
      )}
      {creating && (
        <CreateKey
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
      {secret && <SecretOnce label="API key" kept="hash" secret={secret} onClose={() => setSecret('')} />}
      {revoking && (
        <Confirm
          title="Revoke this key?"
          body={
            <p>
              <strong>{revoking.name}</strong> (<code>{revoking.prefix}</code>) stops working at once: every later call with it is refused.
              The row stays for the record. This cannot be undone.
            </p>
          }
          action="Revoke key"
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await clients.partner.revokeApiKey({ path: { workspace_id: workspace.id, key_id: revoking.id }, body: { confirm: true } });
            reload();
          }}
        />
      )}
    </section>
  );
}

const groups = [...new Set(scopeCatalogue.map((s) => s.group))];

function CreateKey(props: { clients: Clients; workspace: WorkspaceInfo; onClose: () => void; onCreated: (key: string) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [expires, setExpires] = useState('');
  const [environment, setEnvironment] = useState<'live' | 'test' | 'dev'>('live');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const toggle = (scope: string) => setScopes((s) => (s.includes(scope) ? s.filter((x) => x !== scope) : [...s, scope]));
  const problems = [
    name.trim() === '' && 'Give the key a name.',
    name.length > 100 && 'The name is longer than 100 characters.',
    scopes.length === 0 && 'Pick at least one scope.',
    scopes.length > 20 && `A key carries at most 20 scopes; ${scopes.length} are picked.`,
    expires !== '' && expires < today() && 'The expiry date is in the past.',
  ].filter(Boolean) as string[];

  return (
    <Dialog title="Create an API key" onClose={props.onClose} wide>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          if (problems.length > 0) return;
          setBusy(true);
          setError('');
          try {
            const created = await props.clients.partner.createApiKey({
              path: { workspace_id: props.workspace.id },
              body: { name: name.trim(), scopes, environment, ...(expires ? { expires_at: expires } : {}) },
            });
            props.onCreated(created.key);
          } catch (err) {
            setError(describeError(err));
            setBusy(false);
          }
        }}
      >
        <label for="key-name">Name</label>
        <input
          id="key-name"
          value={name}
          maxLength={100}
          required
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
          aria-describedby="key-name-count"
        />
        <p id="key-name-count" class="hint">
          {name.length} of 100 characters
        </p>

        <label for="key-env">Environment</label>
        <select id="key-env" value={environment} onChange={(e) => setEnvironment((e.target as HTMLSelectElement).value as 'live')}>
          <option value="live">Live (live_)</option>
          <option value="test">Test (test_)</option>
          <option value="dev">Development (dev_)</option>
        </select>

        <fieldset>
          <legend>Presets</legend>
          <div class="preset-list">
            {Object.entries(scopePresets).map(([preset, list]) => (
              <button type="button" key={preset} onClick={() => setScopes([...list])} title={list.join(', ')}>
                {preset}
              </button>
            ))}
          </div>
        </fieldset>

        <fieldset>
          <legend>
            Scopes <span class="muted">({scopes.length} of at most 20 picked)</span>
          </legend>
          <div class="scope-groups">
            {groups.map((g) => (
              <div class="scope-group" key={g}>
                <p class="group-name">{g}</p>
                {[`${g}:*`, ...scopeCatalogue.filter((s) => s.group === g).map((s) => s.id)].map((scope) => (
                  <label class="check" key={scope}>
                    <input type="checkbox" checked={scopes.includes(scope)} onChange={() => toggle(scope)} />
                    {scope.endsWith(':*') ? `${g}:* (all)` : scope}
                  </label>
                ))}
              </div>
            ))}
          </div>
        </fieldset>

        <label for="key-expires">Expiry date (optional)</label>
        <input
          id="key-expires"
          type="date"
          min={today()}
          value={expires}
          onInput={(e) => setExpires((e.target as HTMLInputElement).value)}
          aria-describedby="key-expires-help"
        />
        <p id="key-expires-help" class="hint">
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
          <button type="submit" class="primary" disabled={busy || problems.length > 0}>
            {busy ? 'Creating…' : 'Create key'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
