import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';
// By path: Vite bundles this file with its packages left to Node, which cannot load a
// workspace's TypeScript. The values are checked where the pages' loaders read them
// (app/site-config.server.ts).
import { providerIdentityOf } from '../shared/src/provider-identity.ts';

const VENDOR_CHUNK = 'react-vendor';
const PUBLIC_CHUNK = 'public';

/**
 * V8's explicit compile hint on the first line of the chunks every public page runs through
 * at start-up (React and React Router; our code with TanStack Query and react-hook-form):
 * V8 compiles them while they stream in, on a background thread, instead of function by
 * function on the main thread as hydration first calls each one (decision 018). Written
 * last: minification would drop the comment, and Vite puts its preload map at the top of a
 * chunk after the output options' banners.
 */
function eagerCompileHint(chunkNames: ReadonlySet<string>): Plugin {
  return {
    name: 'guida:eager-compile-hint',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const file of Object.values(bundle)) {
          if (file.type === 'chunk' && chunkNames.has(file.name)) file.code = `//# allFunctionsCalledOnLoad\n${file.code}`;
        }
      },
    },
  };
}

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
    plugins: [
      tailwindcss(),
      reactRouter(),
      isSsrBuild ? null : eagerCompileHint(new Set([VENDOR_CHUNK, PUBLIC_CHUNK])),
    ],
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
                    name: PUBLIC_CHUNK,
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
