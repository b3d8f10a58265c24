// Rows the workspace suite's dictionaries point at: a lead of the suite key's workspace, so that getLead and
// updateLead are fuzzed past their 404 from the first phase on, and ids for the coverage phase (see hooks.py).
export async function seedWorkspace({ baseUrl, svcKey, aliceWorkspace, aliceKeyIds }) {
  const res = await fetch(`${baseUrl}/api/v1/leads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${svcKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Contract lead' }),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`seeding the workspace suite: POST /api/v1/leads answered ${res.status} ${text.slice(0, 300)}`);
  const lead = JSON.parse(text).id;
  return {
    dictionaries: { leads: [lead] },
    parameters: { 'path.id': 'leads' },
    operations: {},
    coverage: {
      parameters: { 'path.id': lead, 'path.workspace_id': aliceWorkspace, 'path.key_id': aliceKeyIds[0], 'query.key_id': aliceKeyIds[0] },
      operations: {},
    },
  };
}
