#!/usr/bin/env node
/**
 * Exports one account's data to a JSON file through the library. Configure the database exactly as for
 * the server (DB_* variables, else SQLite in API_DATA_DIR):
 *
 *   npm run build && node examples/export-account/dist/main.js alice alice.json
 */
import { runExport } from './export-account.js';

runExport(process.argv.slice(2), (line) => console.log(line)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(`export failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
