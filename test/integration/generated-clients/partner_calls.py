# The partner document's generated client: create a lead with an Idempotency-Key (write), read it back (read).
# BASE_URL and API_KEY (sent as X-Api-Key) come from the test; prints one JSON line.
import json
import os
import uuid

from partner_client import AuthenticatedClient
from partner_client.api.partner_crm import create_lead, get_lead
from partner_client.models import CrmLeadCreate

client = AuthenticatedClient(
    base_url=os.environ["BASE_URL"], token=os.environ["API_KEY"], prefix="", auth_header_name="X-Api-Key",
    raise_on_unexpected_status=True,
)
created = create_lead.sync_detailed(client=client, body=CrmLeadCreate(full_name="Ada Lovelace", email="ada@example.com"), idempotency_key=str(uuid.uuid4()))
assert created.status_code == 201, (created.status_code, created.content)
read = get_lead.sync_detailed(created.parsed.id, client=client)
assert read.status_code == 200, (read.status_code, read.content)
print(json.dumps({
    "created": {"id": str(created.parsed.id), "object": str(created.parsed.object_)},
    "read": {"id": str(read.parsed.id), "full_name": read.parsed.full_name, "email": read.parsed.email},
}))
