// @ts-check
/**
 * Preloaded with `node --import` into a process under test: records which npm packages
 * of `PROBED_PACKAGES` (a regular expression) it resolves, and prints them on exit as
 * `loaded packages: [...]`, so a test can tell that an optional SDK was never loaded.
 */
import { registerHooks } from 'node:module';

const probed = new RegExp(process.env.PROBED_PACKAGES ?? '^$');
/** @type {Set<string>} */
const loaded = new Set();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(resolved.url)?.[1];
    if (name && probed.test(name)) loaded.add(name);
    return resolved;
  },
});
process.on('exit', () => {
  console.log(`loaded packages: ${JSON.stringify([...loaded].sort())}`);
});
