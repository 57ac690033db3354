#!/usr/bin/env bash
# Re-records ../mastra-client.json: what client.mjs observes when real
# Mastra (TypeScript, 1.71) serves the twin apps of twin-server.mjs.
# Run it after changing client.mjs, the apps, or the pinned versions.
#
#   ANCHOR=/path/to/installed/anchor-mastra compat/testdata/twin/record.sh
#
# ANCHOR is a copy of shared/anchor-mastra on which its setup.sh has run
# (node_modules with @mastra/core and @mastra/deployer, nodebin with Node
# 22). compat/setup.sh must have run too (client.mjs uses compat's
# @mastra/client-js). The servers listen on 127.0.0.1 only, on PORT_ANCHOR,
# PORT_FLOWS and PORT_MEMORY (default 4500, 4501 and 4502), and are stopped
# on exit.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
compat=$(cd "$here/../.." && pwd)
: "${ANCHOR:?set ANCHOR to an installed copy of shared/anchor-mastra}"
anchor_port=${PORT_ANCHOR:-4500}
flows_port=${PORT_FLOWS:-4501}
memory_port=${PORT_MEMORY:-4502}

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# The twin imports the anchor's lib/ from ../lib and its packages from
# node_modules, as the anchor's own server/ scripts do.
mkdir -p "$work/server"
cp -r "$ANCHOR/lib" "$ANCHOR/package.json" "$work/"
cp "$here/twin-server.mjs" "$work/server/"
ln -s "$(cd "$ANCHOR" && pwd)/node_modules" "$work/node_modules"

export PATH="$ANCHOR/nodebin/node_modules/.bin:$PATH" MASTRA_TELEMETRY_DISABLED=1
export NODE_OPTIONS="--import=$compat/loopback-guard.mjs"
for app in anchor flows memory; do
  port=$anchor_port
  [ "$app" = flows ] && port=$flows_port
  [ "$app" = memory ] && port=$memory_port
  (cd "$work" && exec node server/twin-server.mjs "$app" "$port" >"$work/$app.log" 2>&1) &
  pids+=($!)
done
for app in anchor flows memory; do
  for _ in $(seq 600); do
    grep -q '"ready":true' "$work/$app.log" 2>/dev/null && break
    sleep 0.1
  done
  grep -q '"ready":true' "$work/$app.log" || { cat "$work/$app.log" >&2; echo "record: the $app twin did not start" >&2; exit 1; }
done

node "$compat/client.mjs" "http://127.0.0.1:$anchor_port" "http://127.0.0.1:$flows_port" "http://127.0.0.1:$memory_port" >"$work/out.json"
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const failed = r.steps.filter((s) => !s.ok);
for (const s of failed) console.error(`record: step ${s.name} failed against real Mastra: ${s.error}`);
process.exit(failed.length ? 1 : 0);
' "$work/out.json"
cp "$work/out.json" "$compat/testdata/mastra-client.json"
echo "record: wrote $compat/testdata/mastra-client.json"
