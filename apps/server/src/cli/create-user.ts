import { createUserCommand } from './commands.js';
import { readPassword } from './password-input.js';

// Without --password: one line of standard input when piped, else a prompt that echoes nothing (on stderr).
const result = await createUserCommand(process.argv.slice(2), process.env, {
  readPassword: () => readPassword(process.stdin, process.stderr),
});
(result.code === 0 ? console.log : console.error)(result.message);
process.exitCode = result.code;
