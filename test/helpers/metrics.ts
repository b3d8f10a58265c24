// Reading counters from two scrapes of /metrics: a series that has not been incremented yet is absent from the
// exposition, and counts as 0.
import { sample } from '../integration/metrics/scrape.js';

/** The value of the series in the exposition, 0 when the series is absent. */
export function countIn(exposition: string, name: string, labels: Record<string, string> = {}): number {
  return sample(exposition, name, labels) ?? 0;
}

/** How much the series grew from the scrape before to the scrape after (an absent series counts 0). */
export function growth(before: string, after: string, name: string, labels: Record<string, string> = {}): number {
  return countIn(after, name, labels) - countIn(before, name, labels);
}
