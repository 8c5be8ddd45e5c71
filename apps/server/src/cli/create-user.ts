import { createUserCommand } from './commands.js';

const result = await createUserCommand(process.argv.slice(2), process.env);
(result.code === 0 ? console.log : console.error)(result.message);
process.exitCode = result.code;
