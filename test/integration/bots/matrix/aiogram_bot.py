# The conformance bot in aiogram, as its documentation writes one; only the API server points elsewhere.
import asyncio
import os
import sys

import aiogram
from aiogram import Bot, Dispatcher, F
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.filters import CommandStart
from aiogram.types import CallbackQuery, ErrorEvent, InlineKeyboardButton, InlineKeyboardMarkup, Message

dp = Dispatcher()
# The updates being handled: on SIGTERM aiogram stops polling and closes its HTTP session without waiting for them,
# so the shutdown hook below lets them finish first (a request cut off would fail as ServerDisconnectedError).
handling: set[asyncio.Task] = set()


@dp.update.outer_middleware()
async def track(handler, event, data):
    task = asyncio.current_task()
    handling.add(task)
    try:
        return await handler(event, data)
    finally:
        handling.discard(task)


@dp.shutdown()
async def finish_handling() -> None:
    await asyncio.gather(*handling, return_exceptions=True)


@dp.message(CommandStart())
async def start(message: Message) -> None:
    keyboard = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="Press me", callback_data="pressed")]])
    await message.answer("Welcome! Press the button.", reply_markup=keyboard)


@dp.callback_query(F.data == "pressed")
async def pressed(query: CallbackQuery) -> None:
    await query.answer("You pressed it")
    await query.message.edit_text(f"Pressed by {query.from_user.first_name}")


@dp.message(F.text)
async def echo(message: Message) -> None:
    await message.answer(f"echo: {message.text}")


@dp.errors()
async def on_error(event: ErrorEvent) -> None:
    print(f"error: {event.exception!r}", file=sys.stderr, flush=True)


async def main() -> None:
    session = AiohttpSession(api=TelegramAPIServer.from_base(os.environ["API_ROOT"]))
    bot = Bot(os.environ["BOT_TOKEN"], session=session)
    me = await bot.get_me()
    print(f"ready {aiogram.__version__} {me.id}", flush=True)
    await dp.start_polling(bot, polling_timeout=10)


if __name__ == "__main__":
    asyncio.run(main())
