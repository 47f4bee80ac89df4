# One image for every process type; docker-compose.yml and Procfile pick the command.
FROM node:20-bookworm-slim AS build
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
RUN npm run build && npm prune --omit=dev --ignore-scripts

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 3000
CMD ["node", "--enable-source-maps", "api/dist/server.js"]
