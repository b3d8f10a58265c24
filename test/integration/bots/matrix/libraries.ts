// The libraries of the conformance matrix, each running the same bot (echo; /start with an inline keyboard; the
// press answered with answerCallbackQuery and editMessageText) written as its own documentation writes one, with
// only the API root pointed at the chat listener. The grammY bot also answers /file with a document. The Python ones run in the project's virtualenv;
// the Java and Rust ones are built into .tools by `make bot-java` and `make bot-rust`.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Bot as GrammyBot, InlineKeyboard, InputFile } from 'grammy';
import { Bot as NtbaBot, InlineKeyboardBuilder } from 'node-telegram-bot-api';
import { Markup, Telegraf } from 'telegraf';
import { message } from 'telegraf/filters';

export interface RunningBot {
  /** The library's version, as loaded. */
  version: string;
  /** The bot's id as the library read it from getMe. */
  botId: number;
  /** What the library reported as failed while running. */
  errors: string[];
  stop(): Promise<void>;
}

export interface Library {
  name: string;
  start(token: string, apiRoot: string): Promise<RunningBot>;
}

const npmVersion = (name: string): string =>
  (JSON.parse(readFileSync(path.join('node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
const describe = (err: unknown): string => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));

/** What the grammY bot's /file command sends as a document. */
export const grammyFile = 'a file uploaded by grammY';

const grammy: Library = {
  name: 'grammY',
  async start(token, apiRoot) {
    const errors: string[] = [];
    const bot = new GrammyBot(token, { client: { apiRoot } });
    bot.command('start', (ctx) =>
      ctx.reply('Welcome! Press the button.', { reply_markup: new InlineKeyboard().text('Press me', 'pressed') }),
    );
    bot.callbackQuery('pressed', async (ctx) => {
      await ctx.answerCallbackQuery({ text: 'You pressed it' });
      await ctx.editMessageText(`Pressed by ${ctx.from.first_name}`);
    });
    // A document uploaded as grammY uploads files: a multipart part referenced by attach://.
    bot.command('file', (ctx) =>
      ctx.replyWithDocument(new InputFile(new TextEncoder().encode(grammyFile), 'grammy.txt'), { caption: 'Here is your file' }),
    );
    bot.on('message:text', (ctx) => ctx.reply(`echo: ${ctx.message.text}`));
    bot.catch((err) => void errors.push(describe(err.error)));
    let started!: () => void;
    const ready = new Promise<void>((resolve) => (started = resolve));
    const loop = bot.start({ onStart: () => started(), timeout: 10 });
    await Promise.race([ready, loop]);
    return { version: npmVersion('grammy'), botId: bot.botInfo.id, errors, stop: async () => (await bot.stop(), await loop) };
  },
};

const telegraf: Library = {
  name: 'Telegraf',
  async start(token, apiRoot) {
    const errors: string[] = [];
    const bot = new Telegraf(token, { telegram: { apiRoot } });
    bot.start((ctx) => ctx.reply('Welcome! Press the button.', Markup.inlineKeyboard([Markup.button.callback('Press me', 'pressed')])));
    bot.action('pressed', async (ctx) => {
      await ctx.answerCbQuery('You pressed it');
      await ctx.editMessageText(`Pressed by ${ctx.from.first_name}`);
    });
    bot.on(message('text'), (ctx) => ctx.reply(`echo: ${ctx.message.text}`));
    bot.catch((err) => void errors.push(describe(err)));
    let launched!: () => void;
    const ready = new Promise<void>((resolve) => (launched = resolve));
    const loop = bot.launch(() => launched());
    await Promise.race([ready, loop]);
    return {
      version: npmVersion('telegraf'),
      botId: bot.botInfo!.id,
      errors,
      stop: async () => {
        bot.stop();
        await loop;
      },
    };
  },
};

const nodeTelegramBotApi: Library = {
  name: 'node-telegram-bot-api',
  async start(token, apiRoot) {
    const errors: string[] = [];
    const bot = new NtbaBot(token, { apiRoot });
    bot.command('start', (ctx) =>
      ctx.reply('Welcome! Press the button.', { reply_markup: new InlineKeyboardBuilder().text('Press me', 'pressed').build() }),
    );
    bot.on('callback_query', async (ctx) => {
      await ctx.answerCallbackQuery({ text: 'You pressed it' });
      await ctx.api.editMessageText({
        chat_id: ctx.chatId!,
        message_id: ctx.callbackQuery!.message!.message_id,
        text: `Pressed by ${ctx.from!.first_name}`,
      });
    });
    bot.on('message', (ctx) => ctx.reply(`echo: ${ctx.message!.text}`));
    bot.catch((err) => void errors.push(describe(err)));
    const me = await bot.api.getMe();
    const loop = bot.startPolling(undefined, { timeout: 10 }).catch((err: unknown) => void errors.push(describe(err)));
    return {
      version: npmVersion('node-telegram-bot-api'),
      botId: me.id,
      errors,
      stop: async () => {
        bot.stop();
        await loop;
      },
    };
  },
};

/**
 * A bot in its own process: ready once it prints "ready <version> <bot id>"; stopped with SIGTERM. A stderr line that
 * starts with "error: " (what our bots print for a failure the library reported), a Python traceback, a Java
 * exception that ended a thread or a Rust panic counts as an error.
 */
export function childProcess(name: string, command: string, args: string[], env: Record<string, string> = {}): Library {
  return {
    name,
    start(token, apiRoot) {
      const child = spawn(command, args, {
        env: { ...process.env, ...env, BOT_TOKEN: token, API_ROOT: apiRoot },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const errors: string[] = [];
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        for (const line of chunk.toString().split('\n'))
          if (line.startsWith('error: ') || /Traceback|Exception in thread|panicked at/.test(line)) errors.push(line);
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      return new Promise<RunningBot>((resolve, reject) => {
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          const ready = /^ready (\S+) (\d+)$/m.exec(stdout);
          if (!ready) return;
          resolve({
            version: ready[1]!,
            botId: Number(ready[2]),
            errors,
            stop: async () => {
              child.kill('SIGTERM');
              const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
              await exited;
              clearTimeout(timer);
            },
          });
        });
        void exited.then((code) => reject(new Error(`${name} exited (${code}) before it was ready: ${stderr}`)));
      });
    },
  };
}

const matrix = path.join('test', 'integration', 'bots', 'matrix');

/** A Python bot of ./matrix, in the project's virtualenv. */
export const python = (name: string, script: string): Library =>
  childProcess(name, path.join('.tools', 'venv', 'bin', 'python'), [path.join(matrix, script)], { PYTHONUNBUFFERED: '1' });

/**
 * The Java bot (./matrix/java/EchoBot.java), compiled by `make bot-java` against the jars Maven copied into
 * .tools/java-bot/lib. The serial collector and the first JIT tier only: a short-lived bot needs no more, and they
 * spare CPU that the other test files share.
 */
const pengrad = childProcess('java-telegram-bot-api', 'java', [
  '-XX:+UseSerialGC',
  '-XX:TieredStopAtLevel=1',
  '-cp',
  [path.join('.tools', 'java-bot', 'classes'), path.join('.tools', 'java-bot', 'lib', '*')].join(path.delimiter),
  'EchoBot',
]);

/** The Rust bot (./matrix/rust), built by `make bot-rust`. */
const frankenstein = childProcess('frankenstein', path.join('.tools', 'rust-bot', 'debug', 'frankenstein-echo-bot'), []);

export const libraries: Library[] = [
  grammy,
  telegraf,
  nodeTelegramBotApi,
  python('python-telegram-bot', 'ptb_bot.py'),
  python('aiogram', 'aiogram_bot.py'),
  pengrad,
  frankenstein,
];
