# Formatting through python-telegram-bot's own calls: HTML, MarkdownV2 (escaped with the library's helper), explicit
# entities, an edit and bad markup. Prints what the library made of each answer as one JSON object.
import asyncio
import json
import os

from telegram import Bot, MessageEntity
from telegram.constants import ParseMode
from telegram.error import BadRequest
from telegram.helpers import escape_markdown


def seen(message):
    return {
        "text": message.text,
        "entities": [entity.to_dict() for entity in message.entities],
        "html": message.text_html,
    }


async def main() -> None:
    chat_id = os.environ["CHAT_ID"]
    out = {}
    async with Bot(os.environ["BOT_TOKEN"], base_url=os.environ["API_ROOT"] + "/bot") as bot:
        html = await bot.send_message(chat_id, '<b>bold</b> &amp; <a href="https://example.com/">co</a>', parse_mode=ParseMode.HTML)
        out["html"] = seen(html)
        version = escape_markdown("v1.0 (beta)", version=2)
        markdown = await bot.send_message(chat_id, f"*{version}* ~gone~", parse_mode=ParseMode.MARKDOWN_V2)
        out["markdown_v2"] = seen(markdown)
        explicit = await bot.send_message(chat_id, "plain words", entities=[MessageEntity(MessageEntity.ITALIC, 0, 5)])
        out["entities"] = seen(explicit)
        edited = await markdown.edit_text("<u>edited</u>", parse_mode=ParseMode.HTML)
        out["edited"] = seen(edited)
        try:
            await bot.send_message(chat_id, "<b>open", parse_mode=ParseMode.HTML)
            out["bad"] = None
        except BadRequest as error:
            out["bad"] = error.message
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
