import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

const VENDOR_CHUNK = 'react-vendor';

/**
 * `npm run dev` (scripts/dev.mjs) runs the API beside this dev server, on DEV_API_PORT:
 * the paths the API answers go there, the pages are served here with hot reload.
 */
const API_PATHS = ['/api/', '/g/', '/gdpr/conferma/', '/gdpr/export/', '/healthz', '/readyz'];
const devApiPort = process.env.DEV_API_PORT;

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), reactRouter()],
  server: {
    // Guide sources outside web/ are read at build time (the older page's content preview).
    fs: { allow: ['..'] },
    proxy: devApiPort
      ? Object.fromEntries(API_PATHS.map((path) => [path, `http://127.0.0.1:${devApiPort}`]))
      : undefined,
  },
  build: isSsrBuild
    ? {}
    : {
        rolldownOptions: {
          output: {
            // V8's explicit compile hint: the chunk hydration runs through is compiled eagerly,
            // while it streams in on a background thread, instead of function by function on
            // the main thread as hydration first calls each one (decision 018). After
            // minification, which would drop the comment.
            postBanner: (chunk) => (chunk.name === VENDOR_CHUNK ? '//# allFunctionsCalledOnLoad' : ''),
            codeSplitting: {
              // The libraries every public page hydrates with, in one chunk instead of a dozen:
              // fewer requests and module records on the throttled first load. Only these
              // packages: the lazy ones (Radix, zod) stay in their own chunks.
              groups: [
                {
                  name: VENDOR_CHUNK,
                  test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](query-core|react-query)|react-hook-form|cookie|set-cookie-parser)[\\/]/,
                },
              ],
            },
          },
        },
      },
}));
