# The chat document's generated client as an integrator uses it: create a reminder (write), read it back (read).
# BASE_URL and TOKEN (a signed-in account's bearer token) come from the test; prints one JSON line.
import datetime
import json
import os

from chat_client import AuthenticatedClient
from chat_client.api.reminders import create_reminder, get_reminder
from chat_client.models import CreateReminderRequest

client = AuthenticatedClient(base_url=os.environ["BASE_URL"], token=os.environ["TOKEN"], raise_on_unexpected_status=True)
at = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)).replace(microsecond=0)
created = create_reminder.sync_detailed(client=client, body=CreateReminderRequest(text="call the dentist", remind_at=at))
assert created.status_code == 201, (created.status_code, created.content)
reminder_id = created.parsed.data.id
read = get_reminder.sync_detailed(reminder_id, client=client)
assert read.status_code == 200, (read.status_code, read.content)
print(json.dumps({
    "created": {"id": str(reminder_id), "kind": str(created.parsed.data.kind)},
    "read": {"id": str(read.parsed.data.id), "text": read.parsed.data.text, "remindAt": read.parsed.data.remind_at.isoformat()},
}))
