import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  // Guide sources outside web/ are read at build time (the older page's content preview).
  server: { fs: { allow: ['..'] } },
});
