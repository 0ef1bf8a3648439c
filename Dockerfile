# syntax=docker/dockerfile:1
# Lagerfeuer: build with the dev tools, run with production dependencies only, as a non-root user.

FROM node:20-bookworm-slim AS deps
WORKDIR /app
# better-sqlite3 compiles its native module when no prebuilt binary can be fetched.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# npm ci applies the patches of patches/ (patch-package, its postinstall): they must be there.
COPY patches ./patches
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim AS run
# `docker stop` waits 10 s before it kills: requests in flight get 8 s to finish after SIGTERM.
# Behind a proxy in another container, set TRUST_PROXY (see README, "Behind a reverse proxy").
ENV NODE_ENV=production \
    PORT=3000 \
    DATABASE_PATH=/data/lagerfeuer.db \
    MAIL_DIR=/data/mail \
    UPLOADS_DIR=/app/uploads \
    SHUTDOWN_TIMEOUT_SECONDS=8
WORKDIR /app
RUN groupadd --system lagerfeuer && useradd --system --gid lagerfeuer --home-dir /app lagerfeuer \
    && mkdir -p /data /app/uploads && chown lagerfeuer:lagerfeuer /data /app/uploads
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/db/migrations ./db/migrations
COPY --from=build /app/package.json /app/server.mjs ./
# `docker exec … npm run backup -- /data/backups/…` and `npm run restore` (the app stopped).
COPY --from=build /app/scripts/backup.mjs /app/scripts/restore.mjs /app/scripts/backup-lib.mjs /app/scripts/running-app.mjs ./scripts/
USER lagerfeuer
VOLUME ["/data", "/app/uploads"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# server.mjs checks the settings, migrates the database and starts the mail worker before it listens.
CMD ["node", "server.mjs"]
