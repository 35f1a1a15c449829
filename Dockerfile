# The production image: the built page (dist/), the bundled server (build/server/) and production dependencies only,
# run as the unprivileged `node` user. How to build, run and configure it: docs/deploying.md.
#
#   podman build --format docker -t partner-task-kit .     # or: docker build -t partner-task-kit .
#
# --format docker keeps the HEALTHCHECK below: podman drops it from an image in its default OCI format.

ARG NODE_IMAGE=node:20-bookworm-slim

# better-sqlite3 compiles from source where its prebuilt binary cannot be downloaded: the compiler stays in the
# stages that install, never in the image that runs.
FROM ${NODE_IMAGE} AS toolchain
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app

# Production dependencies alone, from the lockfile: cached until a package.json or package-lock.json change; those of
# the server's package only, since the bundled server holds the other packages' code and the page is built. Only what
# runs is kept (docs/deploying.md#the-image): of better-sqlite3 the compiled addon, not its C sources and object files;
# of libheif-js the one build heic-decode loads (libheif-wasm/libheif-bundle.js, the WebAssembly inside), not its
# asm.js, ES module and separate-file builds; of every package no TypeScript declarations or sources and no source
# maps (Node reads neither; the server bundle keeps its own map). Licences and package.json files stay.
FROM toolchain AS dependencies
COPY package.json package-lock.json ./
COPY packages/workflow/package.json packages/workflow/
COPY packages/page/package.json packages/page/
COPY packages/server/package.json packages/server/
COPY packages/dev/package.json packages/dev/
COPY packages/vite-plugin/package.json packages/vite-plugin/
COPY packages/kit-tests/package.json packages/kit-tests/
RUN npm ci --omit=dev --workspace @partner-task-kit/server --no-audit --no-fund \
  && cd node_modules/better-sqlite3 \
  && mv build/Release/better_sqlite3.node . \
  && rm -rf build deps src \
  && mkdir -p build/Release \
  && mv better_sqlite3.node build/Release/ \
  && cd ../libheif-js \
  && rm -r libheif libheif-wasm/libheif-bundle.mjs libheif-wasm/libheif.wasm libheif-wasm/libheif.js \
  && cd .. \
  && find . -type f \( -name '*.ts' -o -name '*.d.cts' -o -name '*.d.mts' -o -name '*.map' \) -delete

# The page and the server, built with the dev dependencies (vite, esbuild). Those include @partner-task-kit/dev, whose
# preview the page's build would include: PREVIEW_ENABLED=false leaves it out (docs/architecture.md#the-dev-package), and the
# production dependencies above have none of it, so the image runs only with a real credential.
FROM toolchain AS build
COPY package.json package-lock.json ./
COPY --from=dependencies /app/packages ./packages
RUN npm ci --no-audit --no-fund
COPY . .
RUN PREVIEW_ENABLED=false npm run build

# `--target tools`: the sources and every dependency, for the commands that run through tsx (npm run migrate, doctor,
# outbox, tenants, tasks) against the server's database: docs/deploying.md#commands-in-a-container.
FROM build AS tools
ENV NPM_CONFIG_UPDATE_NOTIFIER=false
USER node
CMD ["npm", "run", "doctor"]

FROM ${NODE_IMAGE} AS runtime
# NODE_ENV=production refuses emulator mode without ALLOW_EMULATOR_IN_PRODUCTION and logs JSON lines
# (docs/configuration.md#production-switches); 0.0.0.0 so the proxy or the runtime's port mapping reaches it.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8787
# Two malloc arenas instead of glibc's eight a core: libvips's threads (sharp, cleaning uploaded photos) each took one
# and kept it grown. Ten sideways 12 MP photos raised the server's RSS by 111-123 MB with the default, 87-96 MB with
# two (docs/development.md#benchmarks).
ENV MALLOC_ARENA_MAX=2
WORKDIR /app
# Owned by root and read-only to the server; only data/ (the default SQLite file, a volume in production) is its own.
COPY --from=dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/build/server ./build/server
COPY package.json ./
RUN mkdir data && chown node:node data
USER node
EXPOSE 8787
# /readyz is 200 only while the database takes a write (docs/operations.md#readiness). The slim image has no curl.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8787) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself as process 1, not npm or a shell, so the runtime's SIGTERM reaches the server, which finishes its
# deliveries in flight and exits 0 (docs/operations.md#start-and-stop). The flags are those of `npm run serve`.
CMD ["node", "--max-semi-space-size=4", "--enable-source-maps", "build/server/main.mjs"]
