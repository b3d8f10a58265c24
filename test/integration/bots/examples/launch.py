# Runs one example bot of python-telegram-bot or aiogram as its library ships it, changing only what a reader of the
# example is told to change: the token (PTB's examples hold the placeholder "TOKEN"; aiogram's read BOT_TOKEN from the
# environment) and the Bot API root, which both libraries take as a constructor argument that the examples leave at its
# default. The defaults are replaced here, before the example's code runs, so its text is executed as shipped.
#
# Usage: launch.py <example.py>, with BOT_TOKEN and API_ROOT in the environment; the working directory is where the
# example keeps its files (PicklePersistence). Prints "polling" once the bot first asks for updates.
import os
import sys

TOKEN = os.environ["BOT_TOKEN"]
API_ROOT = os.environ["API_ROOT"]
polling_announced = False


def announce_polling() -> None:
    global polling_announced
    if not polling_announced:
        polling_announced = True
        print("polling", flush=True)


def point_python_telegram_bot() -> None:
    import telegram

    original_init = telegram.Bot.__init__
    original_get_updates = telegram.Bot.get_updates

    def init(self, token, base_url=None, base_file_url=None, *args, **kwargs):
        # Every Bot of the example (ExtBot through ApplicationBuilder too) talks to the chat's Bot API.
        original_init(self, token, f"{API_ROOT}/bot", f"{API_ROOT}/file/bot", *args, **kwargs)

    async def get_updates(self, *args, **kwargs):
        announce_polling()
        return await original_get_updates(self, *args, **kwargs)

    telegram.Bot.__init__ = init
    telegram.Bot.get_updates = get_updates


def point_aiogram() -> None:
    import aiogram
    from aiogram.client.session.aiohttp import AiohttpSession
    from aiogram.client.telegram import TelegramAPIServer
    from aiogram.methods import GetUpdates

    original_init = aiogram.Bot.__init__
    original_call = aiogram.Bot.__call__

    def init(self, token, session=None, *args, **kwargs):
        if session is None:
            session = AiohttpSession(api=TelegramAPIServer.from_base(API_ROOT))
        original_init(self, token, session, *args, **kwargs)

    async def call(self, method, *args, **kwargs):
        if isinstance(method, GetUpdates):
            announce_polling()
        return await original_call(self, method, *args, **kwargs)

    aiogram.Bot.__init__ = init
    aiogram.Bot.__call__ = call


def main() -> None:
    path = sys.argv[1]
    with open(path, encoding="utf-8") as file:
        source = file.read()
    if "aiogram" in source:
        point_aiogram()
    else:
        point_python_telegram_bot()
    # The one edit the examples ask for: their token placeholder (a string literal that appears nowhere else).
    source = source.replace('"TOKEN"', repr(TOKEN))
    sys.argv = [path]
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    code = compile(source, path, "exec")
    exec(code, {"__name__": "__main__", "__file__": path, "__builtins__": __builtins__})


if __name__ == "__main__":
    main()
