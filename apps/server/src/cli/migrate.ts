import { migrateCommand } from './commands.js';

const result = await migrateCommand(process.env);
(result.code === 0 ? console.log : console.error)(result.message);
process.exitCode = result.code;
