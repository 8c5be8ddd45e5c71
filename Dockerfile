# syntax=docker/dockerfile:1
# Plaza's image (docs/decisions/0100): the commands CI runs (.ci/run), in two stages.
#   docker build -t plaza .
#   docker run -p 8080:8080 -v plaza-data:/var/lib/plaza plaza            # SQLite, nothing else
#   docker compose up                                                        # with MariaDB (compose.yaml)

# Build: install everything (npm ci builds through `prepare`), make the bundle (built code and
# production dependencies only), and start it once as CI does.
FROM node:20-bookworm AS build
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.npm \
    npm ci --no-audit --no-fund \
 && npm run package \
 && node scripts/start-once.mjs bundle

# Run: the bundle alone, no compiler, no development dependency, as an unprivileged user.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    API_DATA_DIR=/var/lib/plaza \
    API_CONFIG_DIR=/var/lib/plaza/config
WORKDIR /app
COPY --from=build /src/bundle/ /app/
# The code stays root's (read-only to the server); only the data directory is the server's.
RUN mkdir -p /var/lib/plaza/config && chown -R node:node /var/lib/plaza
USER node
VOLUME ["/var/lib/plaza"]
EXPOSE 8080
# Ready: the database answers, migrations are done, not shutting down (docs/decisions/0101). The start
# period covers the wait for a database that starts later (DB_CONNECT_TIMEOUT_S, 60 s by default).
HEALTHCHECK --interval=15s --timeout=5s --start-period=90s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health/ready').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
# node itself is PID 1 and handles SIGTERM (finishes requests in flight, then exits 0); no npm wrapper.
CMD ["node", "apps/server/dist/main.js"]
