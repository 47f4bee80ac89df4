import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), reactRouter()],
  // Guide sources outside web/ are read at build time (the older page's content preview).
  server: { fs: { allow: ['..'] } },
  build: isSsrBuild
    ? {}
    : {
        rolldownOptions: {
          output: {
            codeSplitting: {
              // The libraries every public page hydrates with, in one chunk instead of a dozen:
              // fewer requests and module records on the throttled first load. Only these
              // packages: the lazy ones (Radix, zod) stay in their own chunks.
              groups: [
                {
                  name: 'react-vendor',
                  test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](query-core|react-query)|react-hook-form|cookie|set-cookie-parser)[\\/]/,
                },
              ],
            },
          },
        },
      },
}));
