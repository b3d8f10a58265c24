# The conformance bot in python-telegram-bot, as its documentation writes one; only base_url points elsewhere.
import os
import sys

import telegram
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes, MessageHandler, filters


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Press me", callback_data="pressed")]])
    await update.message.reply_text("Welcome! Press the button.", reply_markup=keyboard)


async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    await query.answer("You pressed it")
    await query.edit_message_text(f"Pressed by {query.from_user.first_name}")


async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await update.message.reply_text(f"echo: {update.message.text}")


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    print(f"error: {context.error!r}", file=sys.stderr, flush=True)


async def ready(application: Application) -> None:
    print(f"ready {telegram.__version__} {application.bot.id}", flush=True)


def main() -> None:
    application = (
        Application.builder().token(os.environ["BOT_TOKEN"]).base_url(os.environ["API_ROOT"] + "/bot").post_init(ready).build()
    )
    application.add_handler(CommandHandler("start", start))
    application.add_handler(CallbackQueryHandler(pressed, pattern="^pressed$"))
    application.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, echo))
    application.add_error_handler(on_error)
    application.run_polling(poll_interval=0, timeout=10)


if __name__ == "__main__":
    main()
