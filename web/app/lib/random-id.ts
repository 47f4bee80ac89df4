const ALPHABET = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';

/** A random id from the URL-safe alphabet, 21 characters by default (spec section 3). */
export function randomId(size = 21): string {
  const bytes = crypto.getRandomValues(new Uint8Array(size));
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte & 63];
  return id;
}
