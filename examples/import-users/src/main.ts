#!/usr/bin/env node
/**
 * Imports accounts from a CSV file (columns username, email, and optionally password and cause).
 * Configure the database exactly as for the server (DB_* variables, else SQLite in API_DATA_DIR):
 *
 *   npm run build && node examples/import-users/dist/main.js people.csv
 */
import { runImport } from './cli.js';

runImport(process.argv.slice(2), { out: (line) => console.log(line), progress: process.stderr }).then(
  (code) => process.exit(code),
  (error) => {
    console.error(`import failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
