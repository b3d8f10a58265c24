// Every operation gets a summary (generators name methods and docs list operations by it): an operation's own
// @summary wins; otherwise its first sentence of the doc comment (the description), shortened to a list-length line.
const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const maxLength = 80;

/** The summary a description gives: its first sentence, cut at a clause boundary or a word when it is long. */
export function summaryOf(description) {
  const sentence = description
    .trim()
    .split(/(?<=[.!?])\s+|\n/)[0]
    .replace(/[.!?]$/, '');
  if (sentence.length <= maxLength) return sentence;
  for (const boundary of [': ', '; ', ' (', ', ']) {
    const at = sentence.indexOf(boundary);
    if (at >= 12 && at <= maxLength) return sentence.slice(0, at);
  }
  return sentence.slice(0, sentence.lastIndexOf(' ', maxLength - 1)) + '…';
}

/** Writes a summary on every operation of an OpenAPI document that has a description and no summary. */
export function addOperationSummaries(doc) {
  for (const item of [...Object.values(doc.paths ?? {}), ...Object.values(doc.webhooks ?? {})]) {
    for (const method of methods) {
      const operation = item[method];
      if (operation && !operation.summary && operation.description) operation.summary = summaryOf(operation.description);
    }
  }
}
