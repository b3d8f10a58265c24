// The conformance bot in java-telegram-bot-api (pengrad), written as its README writes one: an UpdatesListener that
// executes requests; only the API url points at the chat listener. Prints "ready <library version> <bot id>" once
// getMe has answered, and each failed request as "error: ..." on stderr.
import com.pengrad.telegrambot.TelegramBot;
import com.pengrad.telegrambot.UpdatesListener;
import com.pengrad.telegrambot.model.CallbackQuery;
import com.pengrad.telegrambot.model.Message;
import com.pengrad.telegrambot.model.Update;
import com.pengrad.telegrambot.model.message.MaybeInaccessibleMessage;
import com.pengrad.telegrambot.model.request.InlineKeyboardButton;
import com.pengrad.telegrambot.model.request.InlineKeyboardMarkup;
import com.pengrad.telegrambot.request.AnswerCallbackQuery;
import com.pengrad.telegrambot.request.BaseRequest;
import com.pengrad.telegrambot.request.EditMessageText;
import com.pengrad.telegrambot.request.GetMe;
import com.pengrad.telegrambot.request.GetUpdates;
import com.pengrad.telegrambot.request.SendMessage;
import com.pengrad.telegrambot.response.BaseResponse;
import com.pengrad.telegrambot.response.GetMeResponse;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class EchoBot {
    private static TelegramBot bot;

    public static void main(String[] args) throws Exception {
        bot = new TelegramBot.Builder(System.getenv("BOT_TOKEN")).apiUrl(System.getenv("API_ROOT") + "/bot").build();

        GetMeResponse me = bot.execute(new GetMe());
        if (!me.isOk()) throw new IllegalStateException("getMe: " + me.description());
        System.out.println("ready " + libraryVersion() + " " + me.user().id());
        System.out.flush();

        bot.setUpdatesListener(updates -> {
            for (Update update : updates) handle(update);
            return UpdatesListener.CONFIRMED_UPDATES_ALL;
        }, e -> System.err.println("error: " + e), new GetUpdates().timeout(10));
        Runtime.getRuntime().addShutdownHook(new Thread(bot::removeGetUpdatesListener));
    }

    private static void handle(Update update) {
        Message message = update.message();
        if (message != null && message.text() != null) {
            long chatId = message.chat().id();
            if (message.text().equals("/start")) {
                InlineKeyboardMarkup keyboard = new InlineKeyboardMarkup(new InlineKeyboardButton("Press me").callbackData("pressed"));
                execute(new SendMessage(chatId, "Welcome! Press the button.").replyMarkup(keyboard));
            } else {
                execute(new SendMessage(chatId, "echo: " + message.text()));
            }
        }
        CallbackQuery query = update.callbackQuery();
        if (query != null && "pressed".equals(query.data())) {
            execute(new AnswerCallbackQuery(query.id()).text("You pressed it"));
            MaybeInaccessibleMessage pressed = query.maybeInaccessibleMessage();
            execute(new EditMessageText(pressed.chat().id(), pressed.messageId(), "Pressed by " + query.from().firstName()));
        }
    }

    private static <T extends BaseRequest<T, R>, R extends BaseResponse> void execute(BaseRequest<T, R> request) {
        R response = bot.execute(request);
        if (!response.isOk()) {
            System.err.println("error: " + request.getMethod() + ": " + response.errorCode() + " " + response.description());
        }
    }

    /** The library's version, from the name of the jar it was loaded from (java-telegram-bot-api-<version>.jar). */
    private static String libraryVersion() throws Exception {
        Path jar = Path.of(TelegramBot.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Matcher m = Pattern.compile("java-telegram-bot-api-(.+)\\.jar").matcher(jar.getFileName().toString());
        return m.matches() ? m.group(1) : "unknown";
    }
}
