# The Bot API document's generated client: set the command menu (write), then getMe and getMyCommands (reads).
# BASE_URL and BOT_TOKEN come from the test; prints one JSON line.
import json
import os

from bot_client import Client
from bot_client.api.bot_api import get_me, get_my_commands, set_my_commands
from bot_client.models import BotCommand, SetCommandsBody

client = Client(base_url=os.environ["BASE_URL"], raise_on_unexpected_status=True)
token = os.environ["BOT_TOKEN"]
body = SetCommandsBody(commands=[BotCommand(command="start", description="Start over")])
written = set_my_commands.sync_detailed(token, client=client, body=body)
assert written.status_code == 200, (written.status_code, written.content)
me = get_me.sync_detailed(token, client=client)
assert me.status_code == 200, (me.status_code, me.content)
commands = get_my_commands.sync_detailed(token, client=client)
assert commands.status_code == 200, (commands.status_code, commands.content)
print(json.dumps({
    "set": written.parsed.result,
    "me": {"id": me.parsed.result.id, "is_bot": me.parsed.result.is_bot, "username": me.parsed.result.username},
    "commands": [{"command": c.command, "description": c.description} for c in commands.parsed.result],
}))
