# The workspace document's generated client: create a lead (write), read it back (read).
# BASE_URL and SVC_KEY (a svc_ key, sent as a bearer token) come from the test; prints one JSON line.
import json
import os

from workspace_client import AuthenticatedClient
from workspace_client.api.crm import create_lead, get_lead
from workspace_client.models import CrmLeadCreate

client = AuthenticatedClient(base_url=os.environ["BASE_URL"], token=os.environ["SVC_KEY"], raise_on_unexpected_status=True)
created = create_lead.sync_detailed(client=client, body=CrmLeadCreate(name="Grace Hopper", email="grace@example.com"))
assert created.status_code == 201, (created.status_code, created.content)
read = get_lead.sync_detailed(created.parsed.id, client=client)
assert read.status_code == 200, (read.status_code, read.content)
print(json.dumps({
    "created": {"id": str(created.parsed.id), "status": str(created.parsed.status)},
    "read": {"id": str(read.parsed.id), "name": read.parsed.name, "email": read.parsed.email},
}))
