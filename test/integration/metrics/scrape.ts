// Reads a Prometheus text exposition: one sample's value by name and labels (absent: undefined).

export async function scrape(metricsUrl: string): Promise<string> {
  const res = await fetch(`${metricsUrl}/metrics`);
  if (res.status !== 200) throw new Error(`GET /metrics: HTTP ${res.status}`);
  return res.text();
}

function labelsOf(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const m of text.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[m[1]!] = m[2]!;
  return labels;
}

/** The value of the first sample of `name` whose labels include `labels`. */
export function sample(exposition: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of exposition.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const own = labelsOf(m[2] ?? '');
    if (Object.entries(labels).every(([k, v]) => own[k] === v)) return Number(m[3]);
  }
  return undefined;
}
