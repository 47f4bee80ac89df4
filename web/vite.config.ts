import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
// By path: Vite bundles this file with its packages left to Node, which cannot load a
// workspace's TypeScript. The values are checked where the pages' loaders read them
// (app/site-config.server.ts).
import { providerIdentityOf } from '../shared/src/provider-identity.ts';

const VENDOR_CHUNK = 'react-vendor';

/**
 * `npm run dev` (scripts/dev.mjs) runs the API beside this dev server, on DEV_API_PORT:
 * the paths the API answers go there, the pages are served here with hot reload.
 */
const API_PATHS = ['/api/', '/g/', '/gdpr/conferma/', '/gdpr/export/', '/healthz', '/readyz'];
const devApiPort = process.env.DEV_API_PORT;

export default defineConfig(({ command, isSsrBuild }) => {
  // Every build is a production build, whatever NODE_ENV the process inherits (`npm start`
  // and `npm test` load a .env that says development): Vite would otherwise keep the
  // libraries' development code (warnings, checks), larger and slower. Vite reads NODE_ENV
  // after loading this file.
  if (command === 'build') process.env.NODE_ENV = 'production';
  // The provider every page's footer names, from the configuration the site is built with
  // (the API refuses to start in production without it).
  const provider = providerIdentityOf(process.env);
  return {
    plugins: [tailwindcss(), reactRouter()],
    define: { __PROVIDER_IDENTITY__: JSON.stringify(provider) },
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
                // The libraries every public page hydrates with (React, React Router), in one
                // chunk instead of a dozen: fewer requests and module records on the throttled
                // first load. Only these packages: the lazy ones (Radix, zod, uPlot) stay in
                // their own chunks.
                groups: [
                  {
                    name: VENDOR_CHUNK,
                    test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/,
                  },
                  {
                    // Our code that the public pages import statically, in one chunk too: a
                    // landing page then loads 7 files instead of 17, and a few kB of the
                    // article pages' code costs less than the requests (and compresses
                    // better). Apart: what is imported lazily (validation, the challenge, the
                    // cookie panel, the toaster, the widgets), the admin area, the client
                    // entry (it hydrates when it runs, after the route modules), and the
                    // pages no visitor lands on first, the thank-you and data-rights pages
                    // (5.2 kB gzip off every landing page's first load, decision 046).
                    name: 'public',
                    test: /[\\/]web[\\/]app[\\/](?!features[\\/](admin|gdpr-request)[\\/]|routes[\\/](admin-|thank-you|welcome|gdpr)|content[\\/]thank-you|entry\.client\.)/,
                    tags: ['$initial'],
                  },
                ],
              },
            },
          },
        },
  };
});
