# A python-telegram-bot conversation with reply keyboards, written as the library's documentation writes one (its
# conversationbot's first steps); only base_url points elsewhere. /start asks with a one-time reply keyboard, a
# choice is answered with the keyboard removed, /name asks with a forced reply.
import os
import sys

import telegram
from telegram import ForceReply, ReplyKeyboardMarkup, ReplyKeyboardRemove, Update
from telegram.ext import Application, CommandHandler, ContextTypes, MessageHandler, filters


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    keyboard = [["Boy", "Girl", "Other"]]
    await update.message.reply_text(
        "Are you a boy or a girl?",
        reply_markup=ReplyKeyboardMarkup(keyboard, one_time_keyboard=True, input_field_placeholder="Boy or Girl?"),
    )


async def gender(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await update.message.reply_text(f"Noted: {update.message.text}", reply_markup=ReplyKeyboardRemove())


async def name(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await update.message.reply_text("What is your name?", reply_markup=ForceReply(selective=True))


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    print(f"error: {context.error!r}", file=sys.stderr, flush=True)


async def ready(application: Application) -> None:
    print(f"ready {telegram.__version__} {application.bot.id}", flush=True)


def main() -> None:
    application = (
        Application.builder().token(os.environ["BOT_TOKEN"]).base_url(os.environ["API_ROOT"] + "/bot").post_init(ready).build()
    )
    application.add_handler(CommandHandler("start", start))
    application.add_handler(CommandHandler("name", name))
    application.add_handler(MessageHandler(filters.Regex("^(Boy|Girl|Other)$"), gender))
    application.add_error_handler(on_error)
    application.run_polling(poll_interval=0, timeout=10)


if __name__ == "__main__":
    main()
