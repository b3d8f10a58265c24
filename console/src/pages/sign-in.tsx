// Development sign-in: paste a token printed by `npm run dev-token -- --account <uuid>`. In production the
// surrounding platform opens /console/#token=<jwt> instead, and this page is not shown.
import { useState } from 'preact/hooks';

export function SignIn({ onSignIn }: { onSignIn: (token: string) => void }) {
  const [token, setToken] = useState('');
  const valid = /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token.trim());
  return (
    <main id="main" class="sign-in">
      <h1>Sign in to the settings console</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) onSignIn(token);
        }}
      >
        <label for="token">Bearer token</label>
        <textarea
          id="token"
          rows={5}
          value={token}
          onInput={(e) => setToken((e.target as HTMLTextAreaElement).value)}
          aria-describedby="token-help"
          required
        />
        <p id="token-help" class="hint">
          In development, print one with <code>npm run --silent dev-token -- --account &lt;uuid&gt;</code>. In production the platform signs
          you in by opening this page with your session token.
        </p>
        {token && !valid && (
          <p class="field-error" role="alert">
            This is not a JSON Web Token (three dot-separated parts).
          </p>
        )}
        <button type="submit" class="primary" disabled={!valid}>
          Sign in
        </button>
      </form>
    </main>
  );
}
