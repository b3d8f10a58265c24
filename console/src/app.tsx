// The shell: sign-in, the workspace picker and the navigation between settings pages (hash routes, so the
// server needs no fallback route). Pages a role may not use are not offered at all.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { isUnauthenticated, loadClients, type Clients } from './api';
import { AuditLogPage } from './pages/audit-log';
import { PartnerKeysPage } from './pages/partner-keys';
import { SignIn } from './pages/sign-in';
import { SvcKeysPage } from './pages/svc-keys';
import { WebhooksPage } from './pages/webhooks';
import { FirstWorkspace } from './pages/first-workspace';
import { session, takeTokenFromUrl } from './session';
import { ErrorMessage, Loading, useAsync } from './ui';
import { pagesFor, type Cells, type PageId, type WorkspaceInfo } from './access';

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    addEventListener('hashchange', on);
    // The fragment may have changed between the first render and now.
    on();
    return () => removeEventListener('hashchange', on);
  }, []);
  return hash;
}

export function App() {
  const [token, setToken] = useState(session.token());
  // The surrounding platform may hand over a token by changing the fragment of an open page too.
  useEffect(() => {
    const on = () => {
      takeTokenFromUrl();
      setToken(session.token());
    };
    addEventListener('hashchange', on);
    on();
    return () => removeEventListener('hashchange', on);
  }, []);
  const [clients] = useAsync(loadClients, []);
  if (!token) return <SignIn onSignIn={(t) => (session.signIn(t), setToken(session.token()))} />;
  if (clients.state === 'loading') return <Loading what="the console" />;
  if (clients.state === 'error') return <ErrorMessage message={clients.message} />;
  return (
    // Keyed by the token: a token handed over to an open page starts the signed-in view afresh, with nothing of the
    // previous user's workspaces or permissions left on screen.
    <SignedIn
      key={token}
      clients={clients.value}
      onSignOut={async () => {
        session.signOut();
        setToken('');
        location.hash = '#/';
      }}
    />
  );
}

function SignedIn({ clients, onSignOut }: { clients: Clients; onSignOut: () => Promise<void> }) {
  const hash = useHash();
  const [workspaces, reload] = useAsync(async () => {
    const page = await clients.partner.listWorkspaces({ query: { limit: 100 } });
    return page.data as WorkspaceInfo[];
  }, []);
  const match = /^#\/w\/([0-9a-f-]{36})(?:\/([a-z-]+)(?:\/([0-9a-f-]{36}))?)?/.exec(hash);
  const workspaceId = match?.[1];
  const pageId = match?.[2] as PageId | undefined;
  const itemId = match?.[3];

  let main;
  if (workspaces.state === 'loading') main = <Loading what="your workspaces" />;
  else if (workspaces.state === 'error') main = <ErrorMessage message={workspaces.message} onRetry={reload} />;
  else {
    const current = workspaces.value.find((w) => w.id === workspaceId);
    if (!current)
      main = (
        <WorkspacePicker
          workspaces={workspaces.value}
          create={
            <FirstWorkspace
              clients={clients}
              first={workspaces.value.length === 0}
              onCreated={(id) => (reload(), (location.hash = `#/w/${id}`))}
            />
          }
        />
      );
    else main = <Workspace clients={clients} workspace={current} pageId={pageId} itemId={itemId} />;
  }
  return (
    <div class="shell">
      <header class="top">
        <a href="#/" class="brand">
          Settings console
        </a>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      {workspaces.state === 'error' && isUnauthenticatedMessage(workspaces.message) && (
        <p class="hint">Your token was refused. Sign out and sign in with a fresh one.</p>
      )}
      {main}
    </div>
  );
}

const isUnauthenticatedMessage = (m: string) => /token|unauthenticated|expired/i.test(m);
void isUnauthenticated;

function WorkspacePicker({ workspaces, create }: { workspaces: WorkspaceInfo[]; create: ComponentChildren }) {
  return (
    <main id="main">
      <h1>{workspaces.length === 0 ? 'Welcome' : 'Choose a workspace'}</h1>
      {workspaces.length === 0 ? (
        <p>You are not a member of any workspace yet. Create your own below, or ask the owner of an existing one to add you.</p>
      ) : (
        <ul class="cards">
          {workspaces.map((w) => (
            <li key={w.id}>
              <a href={`#/w/${w.id}`}>{w.name}</a>{' '}
              <span class="muted">
                ({w.my_role ?? 'platform administrator'}, plan {w.plan})
              </span>
            </li>
          ))}
        </ul>
      )}
      {create}
    </main>
  );
}

const titles: Record<PageId, string> = {
  'api-keys': 'API keys',
  'svc-keys': 'Service keys',
  audit: 'Key audit log',
  webhooks: 'Webhooks',
};

function Workspace({
  clients,
  workspace,
  pageId,
  itemId,
}: {
  clients: Clients;
  workspace: WorkspaceInfo;
  pageId: PageId | undefined;
  itemId: string | undefined;
}) {
  const [cells] = useAsync(async (): Promise<Cells> => {
    const roles = await clients.partner.listRoles({ path: { workspace_id: workspace.id } });
    const mine = roles.data.find((r) => r.id === workspace.my_role);
    return mine?.api_keys ?? { view: false, create: false, delete: false };
  }, [workspace.id]);
  if (cells.state === 'loading') return <Loading what="your permissions" />;
  if (cells.state === 'error') return <ErrorMessage message={cells.message} />;
  const pages = pagesFor(workspace, cells.value);
  const page = pageId && pages.includes(pageId) ? pageId : pages[0];
  return (
    <div class="workspace">
      <nav aria-label="Settings pages">
        <p class="ws-name">{workspace.name}</p>
        {pages.length > 0 ? (
          <ul>
            {pages.map((p) => (
              <li key={p}>
                <a href={`#/w/${workspace.id}/${p}`} aria-current={p === page ? 'page' : undefined}>
                  {titles[p]}
                </a>
              </li>
            ))}
          </ul>
        ) : null}
        <a href="#/" class="muted">
          Other workspaces
        </a>
      </nav>
      <main id="main">
        {!page && (
          <>
            <h1>No settings pages</h1>
            <p>Your role in this workspace ({workspace.my_role}) has no access to the key or webhook settings. Ask an owner or admin.</p>
          </>
        )}
        {page === 'api-keys' && <PartnerKeysPage clients={clients} workspace={workspace} cells={cells.value} />}
        {page === 'svc-keys' && <SvcKeysPage clients={clients} workspace={workspace} />}
        {page === 'audit' && <AuditLogPage clients={clients} workspace={workspace} />}
        {page === 'webhooks' && <WebhooksPage clients={clients} workspace={workspace} webhookId={itemId} />}
      </main>
    </div>
  );
}
