#!/usr/bin/env node
/**
 * Posts each new line of a text file as the bot account, through the library. Configure the database
 * exactly as for the server (DB_* variables, else SQLite in API_DATA_DIR):
 *
 *   npm run build && node examples/post-bot/dist/main.js newsbot news.txt
 */
import { runBot } from './post-bot.js';

runBot(process.argv.slice(2), (line) => console.log(line)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(`bot failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
