// Creating a workspace from the console (POST /api/v1/workspaces on the partner listener): the caller becomes its
// owner, on the free plan. Offered to everyone signed in; for an account in no workspace it is the way forward.
import { useState } from 'preact/hooks';
import { describeError, type Clients } from '../api';
import { ErrorMessage } from '../ui';

export function FirstWorkspace({ clients, first, onCreated }: { clients: Clients; first: boolean; onCreated: (id: string) => void }) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const problem =
    name.trim() === '' ? 'Give the workspace a name.' : name.trim().length > 200 ? 'The name is longer than 200 characters.' : '';
  return (
    <section class="panel first-workspace" aria-labelledby="new-workspace-title">
      <h2 id="new-workspace-title">{first ? 'Create your first workspace' : 'Create another workspace'}</h2>
      <p class="muted">
        You become its owner. It starts on the free plan; a platform administrator changes the plan (
        <code>PUT /api/v1/workspaces/&#123;id&#125;/plan</code>).
      </p>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          if (problem) return;
          setBusy(true);
          setError('');
          try {
            const created = await clients.partner.createWorkspace({ body: { name: name.trim() } });
            onCreated(created.id);
          } catch (err) {
            setError(describeError(err));
            setBusy(false);
          }
        }}
      >
        <label for="workspace-name">Workspace name</label>
        <input
          id="workspace-name"
          value={name}
          maxLength={200}
          required
          aria-invalid={name !== '' && problem !== ''}
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
          aria-describedby="workspace-name-help"
        />
        <p id="workspace-name-help" class={name !== '' && problem ? 'field-error' : 'hint'}>
          {name !== '' && problem ? problem : `${name.length} of 200 characters`}
        </p>
        {error && <ErrorMessage message={error} />}
        <div class="actions start">
          <button type="submit" class="primary" disabled={busy || problem !== ''}>
            {busy ? 'Creating…' : 'Create workspace'}
          </button>
        </div>
      </form>
    </section>
  );
}
