import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

const VENDOR_CHUNK = 'react-vendor';

export default defineConfig(({ command, isSsrBuild }) => {
  // Every build is a production build, whatever NODE_ENV the process inherits (`npm start`
  // and `npm test` load a .env that says development): Vite would otherwise inline React's
  // development build, several times larger and slower. Vite reads NODE_ENV after loading
  // this file.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    plugins: [tailwindcss(), reactRouter()],
    // Guide sources outside web/ are read at build time (the older page's content preview).
    server: { fs: { allow: ['..'] } },
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
  };
});
