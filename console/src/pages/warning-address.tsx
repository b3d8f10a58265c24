// Where the warning mail of a webhook paused after failed deliveries goes: the workspace's notification address,
// else the Owner's account e-mail. Shown under the webhook list; set or cleared by the Owner or Admin.
import { useState } from 'preact/hooks';
import { describeError, type Clients } from '../api';
import type { WorkspaceInfo } from '../access';
import { ErrorMessage, Loading, useAsync } from '../ui';

export function WarningAddress({ clients, workspace }: { clients: Clients; workspace: WorkspaceInfo }) {
  const [settings, reload] = useAsync(
    () => clients.workspace.getWorkspaceNotifications({ path: { workspace_id: workspace.id } }),
    [workspace.id],
  );
  const [draft, setDraft] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const save = async (email: string | null) => {
    setBusy(true);
    setError('');
    try {
      await clients.workspace.setWorkspaceNotifications({ path: { workspace_id: workspace.id }, body: { email } });
      setDraft(null);
      reload();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="warning-title">
      <h2 id="warning-title">Warning mail</h2>
      <p class="muted">
        A webhook paused after 6 failed delivery attempts is reported by mail to this address, else to the Owner's account e-mail.
      </p>
      {settings.state === 'loading' && <Loading what="the warning address" />}
      {settings.state === 'error' && <ErrorMessage message={settings.message} onRetry={reload} />}
      {settings.state === 'ready' && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const email = (draft ?? settings.value.email ?? '').trim();
            void save(email === '' ? null : email);
          }}
        >
          <label for="warning-email">Notification address</label>
          <input
            id="warning-email"
            type="email"
            maxLength={254}
            value={draft ?? settings.value.email ?? ''}
            placeholder="Empty: the Owner's account e-mail"
            aria-describedby="warning-recipient"
            onInput={(e) => setDraft((e.target as HTMLInputElement).value)}
          />
          <p id="warning-recipient" class="hint">
            {settings.value.recipients.length > 0
              ? `Warnings go to ${settings.value.recipients.join(' and ')}.`
              : 'No address is known: warnings are only logged.'}
          </p>
          {error && <p class="field-error">{error}</p>}
          <button type="submit" disabled={busy}>
            Save address
          </button>
        </form>
      )}
    </section>
  );
}
