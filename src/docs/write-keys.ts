/** `npm run docs:keys`: writes docs/keys.md from the screens' key tables (src/docs/keys.ts). */
import fs from 'node:fs';
import { KEYS_FILE, keysMarkdown } from './keys.js';

fs.writeFileSync(KEYS_FILE, keysMarkdown());
process.stdout.write(`${KEYS_FILE} written\n`);
