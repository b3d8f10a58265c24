// A grammY 1 bot of our own that uses what a typical grammY bot uses: commands, inline and reply keyboards, a photo
// upload, answerCallbackQuery with editMessageText, a reaction and a poll whose answers it reports, written as
// grammY's documentation writes one, with only the API root pointed at the chat.
import { Bot, InlineKeyboard, InputFile, Keyboard } from 'grammy';
import { png } from '../file-helpers.js';

/** The picture /photo sends. */
export const tourPicture = (): Uint8Array => new Uint8Array(png(8, 6));

export interface RunningTour {
  errors: string[];
  stop(): Promise<void>;
}

export async function startTour(token: string, apiRoot: string): Promise<RunningTour> {
  const errors: string[] = [];
  const bot = new Bot(token, { client: { apiRoot } });
  // Where each poll was sent, to report its answers (poll_answer carries no chat).
  const pollChats = new Map<string, number>();

  await bot.api.setMyCommands([
    { command: 'menu', description: 'Inline buttons' },
    { command: 'colour', description: 'A reply keyboard' },
    { command: 'photo', description: 'A picture' },
    { command: 'poll', description: 'A poll' },
  ]);
  bot.command('start', (ctx) => ctx.reply('Welcome to the tour: /menu, /colour, /photo, /poll, or anything to get a 👍.'));
  bot.command('menu', (ctx) =>
    ctx.reply('Do you like the tour?', { reply_markup: new InlineKeyboard().text('Yes', 'like').text('No', 'dislike') }),
  );
  bot.callbackQuery(['like', 'dislike'], async (ctx) => {
    await ctx.answerCallbackQuery({ text: ctx.callbackQuery.data === 'like' ? 'Glad to hear it' : 'Sorry to hear it' });
    await ctx.editMessageText(`${ctx.from.first_name} answered ${ctx.callbackQuery.data === 'like' ? 'yes' : 'no'}`);
  });
  bot.command('colour', (ctx) => ctx.reply('Pick a colour', { reply_markup: new Keyboard().text('Red').text('Blue').oneTime().resized() }));
  bot.hears(['Red', 'Blue'], (ctx) => ctx.reply(`${ctx.message!.text} it is`, { reply_markup: { remove_keyboard: true } }));
  bot.command('photo', (ctx) => ctx.replyWithPhoto(new InputFile(tourPicture(), 'tour.png'), { caption: 'The tour in one picture' }));
  bot.command('poll', async (ctx) => {
    const sent = await ctx.replyWithPoll('Tea or coffee?', [{ text: 'Tea' }, { text: 'Coffee' }], { is_anonymous: false });
    pollChats.set(sent.poll.id, ctx.chat.id);
  });
  bot.on('poll_answer', async (ctx) => {
    const chatId = pollChats.get(ctx.pollAnswer.poll_id);
    const options = ['Tea', 'Coffee'];
    if (chatId !== undefined)
      await ctx.api.sendMessage(
        chatId,
        `${ctx.pollAnswer.user!.first_name} chose ${ctx.pollAnswer.option_ids.map((i) => options[i]).join(', ')}`,
      );
  });
  bot.on('message:text', (ctx) => ctx.react('👍'));
  bot.catch((err) => void errors.push(err.error instanceof Error ? `${err.error.name}: ${err.error.message}` : String(err.error)));

  let started!: () => void;
  const ready = new Promise<void>((resolve) => (started = resolve));
  const loop = bot.start({ onStart: () => started(), timeout: 10, allowed_updates: ['message', 'callback_query', 'poll_answer'] });
  await Promise.race([ready, loop]);
  return { errors, stop: async () => (await bot.stop(), await loop) };
}
