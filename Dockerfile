# syntax=docker/dockerfile:1
# Tessera's image: build stage with the dev tools, runtime stage with production dependencies and
# the built app only. `docker build -t tessera .` / `podman build -t tessera .`

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The web bundle (dist/web, precompressed) and the compiled server (dist/server).
RUN npm run build

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    WEB_DIST=/app/dist/web
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY drizzle ./drizzle
# A user of its own; the data volume belongs to it.
RUN groupadd --system tessera && useradd --system --gid tessera --home /app tessera \
    && mkdir -p /data && chown tessera:tessera /data
USER tessera
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The allocator and V8 settings of `npm start` (package.json): freed memory goes back to the system
# instead of idling in malloc's arenas (README, Performance).
ENV GLIBC_TUNABLES=glibc.malloc.mmap_threshold=16384:glibc.malloc.trim_threshold=16384
# node is PID 1 (no npm, no shell): SIGTERM reaches the server's graceful shutdown directly.
CMD ["node", "--max-semi-space-size=2", "--wasm-tiering-budget=180000000", "dist/server/main.js"]
