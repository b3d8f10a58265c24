// The conformance bot in frankenstein, written as its examples write one (examples/reply_to_message_updates.rs: a
// getUpdates loop on the blocking client); only the API url points at the chat listener. Prints "ready <frankenstein
// version> <bot id>" once getMe has answered, and each failed call as "error: ..." on stderr.
use frankenstein::client_ureq::Bot;
use frankenstein::methods::{AnswerCallbackQueryParams, EditMessageTextParams, GetUpdatesParams, SendMessageParams};
use frankenstein::types::{InlineKeyboardButton, InlineKeyboardMarkup, MaybeInaccessibleMessage, ReplyMarkup};
use frankenstein::updates::UpdateContent;
use frankenstein::TelegramApi;

/// The frankenstein version this binary was built with, as the committed Cargo.lock pins it.
fn frankenstein_version() -> &'static str {
    let lock = include_str!("../Cargo.lock");
    let entry = &lock[lock.find("name = \"frankenstein\"").expect("frankenstein in Cargo.lock")..];
    entry.lines().nth(1).and_then(|line| line.split('"').nth(1)).expect("its version")
}

fn main() {
    let token = std::env::var("BOT_TOKEN").expect("Should have BOT_TOKEN as environment variable");
    let api_root = std::env::var("API_ROOT").expect("Should have API_ROOT as environment variable");

    let bot = Bot::new_url(format!("{api_root}/bot{token}"));

    let me = bot.get_me().expect("getMe").result;
    println!("ready {} {}", frankenstein_version(), me.id);

    let mut update_params = GetUpdatesParams::builder().timeout(10).build();

    loop {
        match bot.get_updates(&update_params) {
            Ok(response) => {
                for update in response.result {
                    match update.content {
                        UpdateContent::Message(message) => {
                            let Some(text) = message.text else { continue };
                            let send_message_params = if text == "/start" {
                                let button = InlineKeyboardButton::builder()
                                    .text("Press me")
                                    .callback_data("pressed")
                                    .build();
                                let inline_keyboard = InlineKeyboardMarkup::builder()
                                    .inline_keyboard(vec![vec![button]])
                                    .build();
                                SendMessageParams::builder()
                                    .chat_id(message.chat.id)
                                    .text("Welcome! Press the button.")
                                    .reply_markup(ReplyMarkup::InlineKeyboardMarkup(inline_keyboard))
                                    .build()
                            } else {
                                SendMessageParams::builder()
                                    .chat_id(message.chat.id)
                                    .text(format!("echo: {text}"))
                                    .build()
                            };
                            if let Err(error) = bot.send_message(&send_message_params) {
                                eprintln!("error: Failed to send message: {error:?}");
                            }
                        }
                        UpdateContent::CallbackQuery(query) if query.data.as_deref() == Some("pressed") => {
                            let answer_params = AnswerCallbackQueryParams::builder()
                                .callback_query_id(query.id)
                                .text("You pressed it")
                                .build();
                            if let Err(error) = bot.answer_callback_query(&answer_params) {
                                eprintln!("error: Failed to answer the callback query: {error:?}");
                            }
                            if let Some(MaybeInaccessibleMessage::Message(message)) = query.message {
                                let edit_params = EditMessageTextParams::builder()
                                    .chat_id(message.chat.id)
                                    .message_id(message.message_id)
                                    .text(format!("Pressed by {}", query.from.first_name))
                                    .build();
                                if let Err(error) = bot.edit_message_text(&edit_params) {
                                    eprintln!("error: Failed to edit the message: {error:?}");
                                }
                            }
                        }
                        _ => {}
                    }
                    update_params.offset = Some(i64::from(update.update_id) + 1);
                }
            }
            Err(error) => {
                eprintln!("error: Failed to get updates: {error:?}");
            }
        }
    }
}
