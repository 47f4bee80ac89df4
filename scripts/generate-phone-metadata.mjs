// @ts-check
// Regenerates shared/src/phone/metadata.it-ch.json from the installed libphonenumber-js.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { subsetMetadata } from '../shared/src/phone/subset-metadata.mjs';

const require = createRequire(import.meta.url);
const full = JSON.parse(readFileSync(require.resolve('libphonenumber-js/metadata.mobile.json'), 'utf8'));
const target = new URL('../shared/src/phone/metadata.it-ch.json', import.meta.url);
writeFileSync(target, JSON.stringify(subsetMetadata(full)) + '\n');
console.log(`wrote ${target.pathname.split('/').slice(-4).join('/')}`);
