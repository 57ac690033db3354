#!/usr/bin/env bash
# Installs the real MCP peers the client's interop tests run against (the versions pinned in
# package-lock.json: @modelcontextprotocol/server-everything and @modelcontextprotocol/conformance)
# and Node 22 from the npm package `node` (nodebin/), into this folder.
# Usage: mcpclient/interop/setup.sh
# Then:  GOMASTRA_REQUIRE_MCP_INTEROP=1 go test -run Interop ./mcpclient/
set -euo pipefail
cd "$(dirname "$0")"
(cd nodebin && npm ci --no-audit --no-fund)
export PATH="$PWD/nodebin/node_modules/.bin:$PATH"
npm ci --no-audit --no-fund
echo "interop peers installed; node $(node --version)"
