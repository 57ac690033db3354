#!/usr/bin/env bash
# Installs the compatibility gate's pinned Node toolchain into this folder:
# Node 22 (the npm package node@22.23.3, in nodebin/) and Mastra's own
# client and CLI (@mastra/client-js 1.47.0, mastra 1.31.0, zod 4.6.7), from
# the lock files, with `npm ci`. The Go tests then need no network.
#
# Idempotent: each install records the checksum of the lock file it came
# from (node_modules/.compat-lock.sha256); while the lock file is
# unchanged and the stamp there, the install is kept and the script returns
# at once. Needs npm (run by any Node >= 18) and the npm registry the first
# time.
#
#   compat/setup.sh && GOMASTRA_REQUIRE_COMPAT=1 go test -race ./compat/
set -euo pipefail
cd "$(dirname "$0")"

# ci DIR: `npm ci` in DIR unless its node_modules came from its lock file
# as it is now.
ci() {
  local dir=$1 stamp="$1/node_modules/.compat-lock.sha256" sum
  sum=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ]; then
    echo "compat: $dir is up to date"
    return
  fi
  echo "compat: npm ci in $dir"
  (cd "$dir" && npm ci --no-audit --no-fund)
  echo "$sum" >"$stamp"
}

ci nodebin
# The @mastra packages need Node >= 22.13: run npm and the install scripts
# with the Node just installed.
export PATH="$PWD/nodebin/node_modules/.bin:$PATH" MASTRA_TELEMETRY_DISABLED=1
ci .
echo "compat: node $(node --version)," \
  "@mastra/client-js $(node -p 'require("@mastra/client-js/package.json").version')," \
  "mastra $(node -p 'require("mastra/package.json").version')"
