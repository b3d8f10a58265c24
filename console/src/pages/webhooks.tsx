// Webhooks, managed with the signed-in Owner's or Admin's token: the environment, the list with status, create, the warning mail's address, and a webhook's detail page (pause, resume,
// disable, edit, delete, the test tool and the delivery log of the 200 most recent deliveries with Resend and Replay).
import { useEffect, useMemo, useState } from 'preact/hooks';
import { describeError, type Clients } from '../api';
import type { WorkspaceInfo } from '../access';
import { eventGroups, samplePayload } from '../events';
import { Confirm, ErrorMessage, Loading, SecretOnce, StatusBadge, TimeCell, useAsync } from '../ui';
import { webhookClient, type WebhookClient, type WebhookEnvironment } from '../webhook-client';
import { WarningAddress } from './warning-address';
import { WebhookForm, type SendResult, type WebhookView } from './webhook-form';

export function WebhooksPage({ clients, workspace, webhookId }: { clients: Clients; workspace: WorkspaceInfo; webhookId?: string }) {
  const [environment, setEnvironment] = useState<WebhookEnvironment>('live');
  const client = useMemo(() => webhookClient(clients.workspace, workspace.id, environment), [clients, workspace.id, environment]);
  if (webhookId) return <WebhookDetail client={client} workspace={workspace} id={webhookId} />;
  return (
    <>
      <p class="hint session">
        <label for="wh-env">Environment</label>{' '}
        <select
          id="wh-env"
          value={environment}
          onChange={(e) => setEnvironment((e.target as HTMLSelectElement).value as WebhookEnvironment)}
        >
          <option value="live">Live</option>
          <option value="test">Test</option>
        </select>{' '}
        Webhooks belong to one environment: live events never reach test webhooks.
      </p>
      <WebhookList key={environment} client={client} workspace={workspace} />
      <WarningAddress clients={clients} workspace={workspace} />
    </>
  );
}

function WebhookList({ client, workspace }: { client: WebhookClient; workspace: WorkspaceInfo }) {
  const [list, reload] = useAsync(() => client.listWebhooks({ query: { limit: 50 } }), [client]);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ webhook: WebhookView; secret?: string; ping?: SendResult } | null>(null);
  return (
    <section aria-labelledby="page-title">
      <div class="page-head">
        <h1 id="page-title">Webhooks</h1>
        <button type="button" class="primary" onClick={() => setCreating(true)}>
          Create webhook
        </button>
      </div>
      {list.state === 'loading' && <Loading what="webhooks" />}
      {list.state === 'error' && <ErrorMessage message={list.message} onRetry={reload} />}
      {list.state === 'ready' && (
        <>
          <div class="table-wrap" tabIndex={0} role="region" aria-label="Table, scrolls sideways">
            <table>
              <caption class="sr-only">Webhooks of {workspace.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">Status</th>
                  <th scope="col">Updated (UTC)</th>
                </tr>
              </thead>
              <tbody>
                {(list.value.items as WebhookView[]).map((w) => (
                  <tr key={w.id}>
                    <td data-label="Name">
                      <a href={`#/w/${workspace.id}/webhooks/${w.id}`}>{w.name}</a>
                    </td>
                    <td data-label="URL" class="url">
                      <code>{w.url}</code>
                    </td>
                    <td data-label="Events">{w.events.length}</td>
                    <td data-label="Status">
                      <StatusBadge status={w.status} />
                    </td>
                    <TimeCell label="Updated" value={w.updated_at} />
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {list.value.items.length === 0 && <p class="empty">No webhooks yet.</p>}
        </>
      )}
      {creating && (
        <WebhookForm
          client={client}
          onClose={() => setCreating(false)}
          onSaved={(saved) => {
            setCreating(false);
            setCreated(saved);
            reload();
          }}
        />
      )}
      {created?.ping && (
        <p class={created.ping.ok ? 'notice ok' : 'notice'} role="status">
          Test ping to {created.webhook.url}: {created.ping.status ?? created.ping.error} in {created.ping.latency_ms} ms. The webhook is{' '}
          {created.webhook.status}.
        </p>
      )}
      {created?.secret && (
        <SecretOnce
          label="Signing secret"
          kept="encrypted"
          secret={created.secret}
          onClose={() => setCreated({ ...created, secret: undefined })}
        />
      )}
    </section>
  );
}

function WebhookDetail({ client, workspace, id }: { client: WebhookClient; workspace: WorkspaceInfo; id: string }) {
  const [hook, reload] = useAsync(() => client.getWebhook({ path: { id } }) as Promise<WebhookView>, [client, id]);
  const [deliveriesRound, setDeliveriesRound] = useState(0);
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState<'disable' | 'delete' | null>(null);
  const [actionError, setActionError] = useState('');
  const [busy, setBusy] = useState(false);
  if (hook.state === 'loading') return <Loading what="the webhook" />;
  if (hook.state === 'error') return <ErrorMessage message={hook.message} onRetry={reload} />;
  const w = hook.value;
  const act = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setActionError('');
    try {
      await action();
      reload();
      setDeliveriesRound((r) => r + 1);
    } catch (e) {
      setActionError(describeError(e));
    } finally {
      setBusy(false);
    }
  };
  const final = w.status === 'Disabled';
  return (
    <section aria-labelledby="page-title">
      <p>
        <a href={`#/w/${workspace.id}/webhooks`}>All webhooks</a>
      </p>
      <div class="page-head">
        <h1 id="page-title">{w.name}</h1>
        <StatusBadge status={w.status} />
      </div>
      <dl class="facts">
        <dt>URL</dt>
        <dd>
          <code>{w.url}</code>
        </dd>
        <dt>Events</dt>
        <dd>{w.events.join(', ')}</dd>
        {w.description && (
          <>
            <dt>Description</dt>
            <dd>{w.description}</dd>
          </>
        )}
        <dt>Custom headers</dt>
        <dd>
          {Object.keys(w.headers).length
            ? Object.entries(w.headers)
                .map(([k, v]) => `${k}: ${v}`)
                .join('; ')
            : 'None'}
        </dd>
        <dt>Secret</dt>
        <dd>…{w.secret_last_four}</dd>
        <dt>Failed attempts since the last success</dt>
        <dd>{w.consecutive_failures}</dd>
        {w.paused_reason && (
          <>
            <dt>Paused</dt>
            <dd>
              {w.paused_reason === 'failures'
                ? 'after a delivery failed every attempt: resume it by hand once the receiver works'
                : 'by hand'}
            </dd>
          </>
        )}
      </dl>
      <div class="actions left">
        {!final && w.status !== 'Paused' && (
          <button type="button" disabled={busy} onClick={() => act(() => client.pauseWebhook({ path: { id } }))}>
            Pause
          </button>
        )}
        {!final && w.status === 'Paused' && (
          <button type="button" class="primary" disabled={busy} onClick={() => act(() => client.resumeWebhook({ path: { id } }))}>
            Resume
          </button>
        )}
        {!final && (
          <button type="button" disabled={busy} onClick={() => setEditing(true)}>
            Edit
          </button>
        )}
        {!final && (
          <button type="button" class="danger" disabled={busy} onClick={() => setConfirm('disable')}>
            Disable
          </button>
        )}
        <button type="button" class="danger" disabled={busy} onClick={() => setConfirm('delete')}>
          Delete
        </button>
      </div>
      {actionError && <ErrorMessage message={actionError} />}
      {!final && <TestTool client={client} webhook={w} onSent={() => setDeliveriesRound((r) => r + 1)} />}
      <DeliveryLog client={client} webhook={w} round={deliveriesRound} onChanged={() => setDeliveriesRound((r) => r + 1)} />
      {editing && (
        <WebhookForm
          client={client}
          existing={w}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            reload();
          }}
        />
      )}
      {confirm === 'disable' && (
        <Confirm
          title="Disable this webhook?"
          body={
            <p>
              No more events are sent to it and waiting deliveries are cancelled. Disabling is final; the webhook stays readable until
              deleted.
            </p>
          }
          action="Disable webhook"
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            await client.disableWebhook({ path: { id } });
            reload();
          }}
        />
      )}
      {confirm === 'delete' && (
        <Confirm
          title="Delete this webhook?"
          body={<p>The webhook and its delivery log are removed. This cannot be undone.</p>}
          action="Delete webhook"
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            await client.deleteWebhook({ path: { id } });
            location.hash = `#/w/${workspace.id}/webhooks`;
          }}
        />
      )}
    </section>
  );
}

function TestTool({ client, webhook, onSent }: { client: WebhookClient; webhook: WebhookView; onSent: () => void }) {
  const firstEvent = (webhook.events[0] ?? eventGroups.CRM[0]) as string;
  const [event, setEvent] = useState(firstEvent);
  const [payload, setPayload] = useState(() => JSON.stringify(samplePayload(firstEvent), null, 2));
  const [result, setResult] = useState<SendResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  let parsed: Record<string, unknown> | undefined;
  let payloadError = '';
  try {
    const value = JSON.parse(payload) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) payloadError = 'The payload must be a JSON object.';
    else parsed = value as Record<string, unknown>;
  } catch (e) {
    payloadError = `Not valid JSON: ${(e as Error).message}`;
  }
  return (
    <section class="panel" aria-labelledby="test-title">
      <h2 id="test-title">Send a test event</h2>
      <label for="test-event">Event</label>
      <select
        id="test-event"
        value={event}
        onChange={(e) => {
          const next = (e.target as HTMLSelectElement).value;
          setEvent(next);
          setPayload(JSON.stringify(samplePayload(next), null, 2));
        }}
      >
        {Object.entries(eventGroups).map(([group, list]) => (
          <optgroup label={group} key={group}>
            {list.map((ev) => (
              <option key={ev} value={ev}>
                {ev}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      <label for="test-payload">Sample payload (the envelope's data)</label>
      <textarea
        id="test-payload"
        rows={8}
        class="code"
        value={payload}
        onInput={(e) => setPayload((e.target as HTMLTextAreaElement).value)}
        aria-invalid={payloadError !== ''}
        aria-describedby="test-payload-help"
      />
      <p id="test-payload-help" class={payloadError ? 'field-error' : 'hint'} aria-live="polite">
        {payloadError || 'Sent signed, like a real delivery, and logged below.'}
      </p>
      <div class="actions left">
        <button
          type="button"
          class="primary"
          disabled={busy || payloadError !== ''}
          onClick={async () => {
            setBusy(true);
            setError('');
            try {
              setResult(
                (await client.testWebhook({ path: { id: webhook.id }, body: { event: event as never, payload: parsed } })) as SendResult,
              );
              onSent();
            } catch (e) {
              setError(describeError(e));
            } finally {
              setBusy(false);
            }
          }}
        >
          {busy ? 'Sending…' : 'Send test'}
        </button>
      </div>
      {error && <ErrorMessage message={error} />}
      {result && (
        <div class="result" role="status" aria-live="polite">
          <p>
            Status <strong class="test-status">{result.status ?? 'no answer'}</strong> in{' '}
            <strong class="test-latency">{result.latency_ms} ms</strong>
            {result.error ? ` (${result.error})` : ''}
          </p>
          <label for="test-body">Response body</label>
          <textarea id="test-body" readOnly rows={4} class="code" value={result.body} />
        </div>
      )}
    </section>
  );
}

interface Delivery {
  id: string;
  /** The id sent: X-SVC-Delivery and the envelope's id. */
  event_id: string;
  kind: string;
  event: string;
  status: string;
  attempt: number;
  response_status: number | null;
  latency_ms: number | null;
  created_at: string;
  last_attempt_at: string | null;
  replay_of: string | null;
}

function DeliveryLog({
  client,
  webhook,
  round,
  onChanged,
}: {
  client: WebhookClient;
  webhook: WebhookView;
  round: number;
  onChanged: () => void;
}) {
  const [log, reload] = useAsync(async () => {
    const items: Delivery[] = [];
    let cursor: string | undefined;
    // The log keeps the 200 most recent deliveries: at most two pages of 100.
    do {
      const page = await client.listWebhookDeliveries({ path: { id: webhook.id }, query: { limit: 100, ...(cursor ? { cursor } : {}) } });
      items.push(...(page.items as Delivery[]));
      cursor = page.next_cursor ?? undefined;
    } while (cursor && items.length < 200);
    return items.slice(0, 200);
  }, [client, webhook.id, round]);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  // While a delivery is on its way, look again shortly so its outcome appears without a click.
  const inFlight = log.state === 'ready' && log.value.some((d) => d.status === 'pending' || d.status === 'sending');
  useEffect(() => {
    if (!inFlight) return;
    const timer = setTimeout(reload, 1500);
    return () => clearTimeout(timer);
  }, [inFlight, log]);
  const act = async (label: string, action: () => Promise<{ event_id: string }>) => {
    setError('');
    try {
      const d = await action();
      setNotice(`${label}: delivery ${d.event_id}.`);
      onChanged();
    } catch (e) {
      setError(describeError(e));
    }
  };
  const final = webhook.status === 'Disabled';
  return (
    <section class="panel" aria-labelledby="log-title">
      <div class="page-head">
        <h2 id="log-title">Delivery log</h2>
        <button type="button" onClick={reload}>
          Refresh
        </button>
      </div>
      <p class="hint">
        The 200 most recent deliveries. Resend repeats a delivery with the same delivery id; Replay sends it again as a new delivery.
      </p>
      {notice && (
        <p class="status" role="status">
          {notice}
        </p>
      )}
      {error && <ErrorMessage message={error} />}
      {log.state === 'loading' && <Loading what="deliveries" />}
      {log.state === 'error' && <ErrorMessage message={log.message} onRetry={reload} />}
      {log.state === 'ready' && (
        <>
          <div class="table-wrap" tabIndex={0} role="region" aria-label="Table, scrolls sideways">
            <table class="deliveries">
              <caption class="sr-only">Deliveries of {webhook.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Time (UTC)</th>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempt</th>
                  <th scope="col">Latency</th>
                  <th scope="col">Delivery id</th>
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {log.value.map((d) => (
                  <tr key={d.id} data-delivery-id={d.event_id}>
                    <TimeCell label="Time" value={d.last_attempt_at ?? d.created_at} />
                    <td data-label="Event">
                      {d.event} <span class="muted small">({d.kind})</span>
                    </td>
                    <td data-label="Status">
                      {d.status}
                      {d.response_status !== null ? ` (${d.response_status})` : ''}
                    </td>
                    <td data-label="Attempt">{d.attempt}</td>
                    <td data-label="Latency">{d.latency_ms === null ? '–' : `${d.latency_ms} ms`}</td>
                    <td data-label="Delivery id">
                      <code title={d.event_id}>{d.event_id.slice(-12)}</code>
                    </td>
                    <td>
                      {!final && (
                        <span class="row-actions">
                          <button
                            type="button"
                            onClick={() =>
                              act('Resent', () => client.resendWebhookDelivery({ path: { id: webhook.id, delivery_id: d.id } }))
                            }
                            aria-label={`Resend delivery ${d.event_id}`}
                          >
                            Resend
                          </button>
                          <button
                            type="button"
                            onClick={() =>
                              act('Replayed', () => client.replayWebhookDelivery({ path: { id: webhook.id, delivery_id: d.id } }))
                            }
                            aria-label={`Replay delivery ${d.event_id}`}
                          >
                            Replay
                          </button>
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {log.value.length === 0 && <p class="empty">No deliveries yet.</p>}
        </>
      )}
    </section>
  );
}
