import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// `npm run dev` starts the API on PORT+1 and tells us where it is; `vite build` ignores the proxy.
const apiTarget = process.env.TESSERA_API_URL ?? "http://127.0.0.1:3001";

export default defineConfig({
  root: "src/web",
  publicDir: false,
  plugins: [react()],
  build: {
    outDir: "../../dist/web",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    reportCompressedSize: true,
    chunkSizeWarningLimit: 400,
    rollupOptions: {
      output: {
        // React changes far less often than the app: its own chunk stays cached across releases.
        manualChunks: (id) => (/node_modules\/(react|react-dom|scheduler)\//.test(id) ? "react" : undefined),
      },
    },
  },
  server: {
    host: process.env.HOST ?? "127.0.0.1",
    port: Number(process.env.PORT ?? 3000),
    strictPort: true,
    // Same origin for the browser: cookies and the server's Origin check work as in production.
    proxy: { "/api": { target: apiTarget, changeOrigin: false, ws: false } },
  },
});
