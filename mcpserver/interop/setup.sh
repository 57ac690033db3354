#!/usr/bin/env bash
# Installs the real MCP peers of the interop tests: Node 22 (from the npm
# package `node`, pinned in nodebin/package-lock.json; the system Node may
# be older) and the npm packages pinned in package-lock.json. Offline-safe
# afterwards. Usage: mcpserver/interop/setup.sh
set -euo pipefail
cd "$(dirname "$0")"
(cd nodebin && npm ci --no-audit --no-fund)
export PATH="$PWD/nodebin/node_modules/.bin:$PATH"
npm ci --no-audit --no-fund
node --version
