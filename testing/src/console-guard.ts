import { afterEach, beforeEach } from 'vitest';

/** A console.error during a test fails it: errors must be handled, not printed. */
const original = console.error;
let calls: unknown[][] = [];

beforeEach(() => {
  calls = [];
  console.error = (...args: unknown[]) => {
    calls.push(args);
    original(...args);
  };
});

afterEach(() => {
  console.error = original;
  if (calls.length > 0) {
    const first = calls[0]!.map((arg) => (arg instanceof Error ? arg.message : String(arg))).join(' ');
    throw new Error(`console.error was called ${calls.length} time(s) during the test, first: ${first}`);
  }
});
