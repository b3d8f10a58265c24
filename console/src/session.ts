// The signed-in user's bearer token. Development: pasted from `npm run dev-token`. Production: the surrounding
// platform opens /console/#token=<jwt>; the fragment never reaches a server, is read once and removed from the URL.
// Kept in sessionStorage: it dies with the tab.
const storageKey = 'console.token';

export function takeTokenFromUrl(): void {
  const match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (!match) return;
  sessionStorage.setItem(storageKey, decodeURIComponent(match[1]!));
  history.replaceState(null, '', `${location.pathname}${location.search}#/`);
}

/** The token's subject (the account id), read without checking the signature: it only labels "You" in lists. */
function subjectOf(token: string): string {
  try {
    const payload = token.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const sub = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === 'string' ? sub : '';
  } catch {
    return '';
  }
}

export const session = {
  token: (): string => sessionStorage.getItem(storageKey) ?? '',
  accountId: (): string => subjectOf(sessionStorage.getItem(storageKey) ?? ''),
  signIn(token: string): void {
    sessionStorage.setItem(storageKey, token.trim());
  },
  signOut(): void {
    sessionStorage.removeItem(storageKey);
  },
};
