# One image for every process type; docker-compose.yml and Procfile pick the command.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY migrations/package.json migrations/
COPY api/package.json api/
COPY worker/package.json worker/
COPY web/package.json web/
COPY testing/package.json testing/
# Install scripts stay off, as in development (package.json "allowScripts").
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# The prerendered pages carry the public address (canonical links, sitemap), the provider
# named in every footer and the data controller of the privacy notice: pass them as build
# arguments (docker-compose.yml takes them from .env). An https PUBLIC_BASE_URL without the
# provider's name, address and VAT number or the privacy contact fails the build.
ARG PUBLIC_BASE_URL PRIVACY_CONTROLLER_NAME PRIVACY_CONTROLLER_ADDRESS PRIVACY_CONTACT_EMAIL \
    PRIVACY_CONTROLLER_VAT PRIVACY_CONTROLLER_REA PRIVACY_CONTROLLER_SHARE_CAPITAL RETENTION_MONTHS \
    ANALYTICS_RETENTION_MONTHS
# What runs afterwards needs only the workspaces' runtime dependencies (decision 034).
RUN npm run build && npm prune --omit=dev --ignore-scripts

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 3000
CMD ["node", "--enable-source-maps", "api/dist/server.js"]
