// Small building blocks shared by the pages: async state, modal dialogs, status messages, dates, scope labels.
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from './api';

export type Async<T> = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; value: T };

/** Runs load on mount and whenever deps change; reload() runs it again. */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): [Async<T>, () => void] {
  const [result, setResult] = useState<Async<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  const lastDeps = useRef<unknown[]>([]);
  useEffect(() => {
    let live = true;
    // A reload of the same thing keeps showing the current value until the new one arrives (no flicker).
    const same = deps.length === lastDeps.current.length && deps.every((d, i) => Object.is(d, lastDeps.current[i]));
    lastDeps.current = deps;
    setResult((prev) => (same && prev.state === 'ready' ? prev : { state: 'loading' }));
    load().then(
      (value) => live && setResult({ state: 'ready', value }),
      (error: unknown) => live && setResult({ state: 'error', message: describeError(error) }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, round]);
  return [result, useCallback(() => setRound((r) => r + 1), [])];
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="status" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function ErrorMessage({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div class="error" role="alert">
      <p>{message}</p>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** A modal dialog (native <dialog>: focus is kept inside, Escape closes it). */
export function Dialog(props: { title: string; onClose: () => void; children: ComponentChildren; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  const titleId = `dialog-${props.title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <dialog
      ref={ref}
      class={props.wide ? 'wide' : undefined}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        props.onClose();
      }}
    >
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
    </dialog>
  );
}

/** Asks before an irreversible action; shows the action's error in place. */
export function Confirm(props: {
  title: string;
  body: ComponentChildren;
  action: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <div>{props.body}</div>
      {error && <ErrorMessage message={error} />}
      <div class="actions">
        <button type="button" onClick={props.onClose} disabled={busy}>
          Cancel
        </button>
        <button
          type="button"
          class="danger"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            setError('');
            try {
              await props.onConfirm();
              props.onClose();
            } catch (e) {
              setError(describeError(e));
              setBusy(false);
            }
          }}
        >
          {busy ? 'Working…' : props.action}
        </button>
      </div>
    </Dialog>
  );
}

/** The full secret, shown once, with a copy button and the warning that it cannot be shown again. */
/** How the server keeps a secret after showing it once: API keys as a hash, webhook signing secrets encrypted. */
export type Kept = 'hash' | 'encrypted';
const keptWording: Record<Kept, string> = {
  hash: 'the server keeps only a hash of it, so nobody can show it to you again',
  encrypted: 'the server keeps it encrypted, to sign deliveries with it, and never shows it again',
};

export function SecretOnce({ label, secret, kept, onClose }: { label: string; secret: string; kept: Kept; onClose: () => void }) {
  const [copied, setCopied] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('Copied to the clipboard.');
    } catch {
      const input = document.getElementById('secret-value') as HTMLInputElement | null;
      input?.select();
      setCopied('Select the text and copy it with your keyboard.');
    }
  };
  return (
    <Dialog title={`${label} created`} onClose={onClose} wide>
      <p class="warning" role="alert">
        Copy it now. It is shown only once: {keptWording[kept]}. Closing this dialog loses it.
      </p>
      <label for="secret-value">{label}</label>
      <div class="secret">
        <input id="secret-value" readOnly value={secret} onFocus={(e) => (e.target as HTMLInputElement).select()} />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p class="status" role="status" aria-live="polite">
        {copied}
      </p>
      <div class="actions">
        <button type="button" class="primary" onClick={onClose}>
          I have copied it, close
        </button>
      </div>
    </Dialog>
  );
}

export function formatTime(value: string | null | undefined, empty = 'Never'): string {
  if (!value) return empty;
  const d = new Date(value);
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** A table cell with a time, to the second, kept on one line; its column header says "(UTC)". */
export function TimeCell({ label, value, empty }: { label: string; value: string | null | undefined; empty?: string }) {
  return (
    <td data-label={`${label} (UTC)`} class="time">
      {value ? <time dateTime={value}>{formatTime(value).replace(/ UTC$/, '')}</time> : formatTime(value, empty)}
    </td>
  );
}

/**
 * An action the workspace's plan or the user's role does not allow yet: shown, disabled, with the reason next to it
 * (and linked to it for screen readers), instead of being refused after the user filled a form.
 */
export function GatedButton(props: { id: string; label: string; reason: string | null; primary?: boolean; onClick: () => void }) {
  const reasonId = `${props.id}-reason`;
  return (
    <span class="gated">
      <button
        type="button"
        id={props.id}
        class={props.primary ? 'primary' : undefined}
        disabled={props.reason !== null}
        aria-describedby={props.reason !== null ? reasonId : undefined}
        onClick={props.onClick}
      >
        {props.label}
      </button>
      {props.reason !== null && (
        <span id={reasonId} class="gate-reason">
          {props.reason}
        </span>
      )}
    </span>
  );
}

/** At most three labels, the rest collapsed into +N. */
export function ScopeChips({ scopes }: { scopes: readonly string[] }) {
  const shown = scopes.slice(0, 3);
  const more = scopes.length - shown.length;
  return (
    <ul class="chips" aria-label={`${scopes.length} scopes: ${scopes.join(', ')}`}>
      {shown.map((s) => (
        <li key={s} class="chip">
          {s}
        </li>
      ))}
      {more > 0 && (
        <li class="chip more" title={scopes.slice(3).join(', ')}>
          +{more}
        </li>
      )}
    </ul>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge ${status.toLowerCase()}`}>{status}</span>;
}

export function today(): string {
  return new Date().toISOString().slice(0, 10);
}
