// The words of a search query and where they occur in a text. PostgreSQL's `simple` configuration lower-cases each
// word and keeps it as it is (no stemming, no stop words), so the same rule in JavaScript finds the occurrences to
// highlight: a word is a run of letters, marks and digits.
import { chatErrors } from '../base/errors.js';

/** The characters of PostgreSQL's query syntax; a plain-words query has none of them. */
const operators = /[&|!():*<>\\"]/;
const word = /[\p{L}\p{M}\p{N}]+/gu;
export const maxQueryWords = 10;

/** The query's distinct words in lower case; a query with operators, no word or too many words is a 400. */
export function queryWords(q: string): string[] {
  if (operators.test(q)) {
    throw chatErrors.invalid('query.q', 'must be plain words: & | ! ( ) : * < > \\ and double quotes are not allowed');
  }
  const words = [...new Set((q.match(word) ?? []).map((w) => w.toLowerCase()))];
  if (words.length === 0) throw chatErrors.invalid('query.q', 'must contain at least one word');
  if (words.length > maxQueryWords) throw chatErrors.invalid('query.q', `must contain at most ${maxQueryWords} words`);
  return words;
}

export interface Highlight {
  offset: number;
  length: number;
}

/** Each occurrence of one of `words` as a whole word of `text`, in text order (UTF-16 offsets). */
export function highlightsOf(text: string | null, words: readonly string[]): Highlight[] {
  if (!text) return [];
  const wanted = new Set(words);
  const found: Highlight[] = [];
  for (const match of text.matchAll(word)) {
    if (wanted.has(match[0].toLowerCase())) found.push({ offset: match.index, length: match[0].length });
  }
  return found;
}
