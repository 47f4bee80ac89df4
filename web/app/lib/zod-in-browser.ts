import { z } from 'zod';

// Zod compiles fast validators with `new Function`, which our CSP forbids ('unsafe-eval'
// is not allowed); without this it tries, is refused (a CSP report) and falls back.
z.config({ jitless: true });
