#!/usr/bin/env bash
# Captures the memory cases of cases.json (from thread-help on) with the
# real Mastra CLI against real Mastra's memory app: compat's
# testdata/twin/twin-server.mjs memory (memory-agent with Memory,
# plain-agent without) on 127.0.0.1:4502, behind the anchor's logging
# proxy on 127.0.0.1:4700, the --url of those cases. Writes each case's
# .txt and .jsonl to OUTDIR, and the full route manifest the server
# answered to OUTDIR/full-api-schema.json.
#
#   /work/shared/netns.sh -- env ANCHOR=/path/to/installed/anchor-mastra \
#     cmd/mastra/testdata/captured/record-memory.sh OUTDIR
#
# ANCHOR is a copy of shared/anchor-mastra on which its setup.sh has run
# (@mastra/core, @mastra/deployer, @mastra/memory, the mastra CLI, Node 22
# in nodebin/). Run it inside a loopback-only network namespace (netns.sh
# above); the servers are stopped on exit. The cases run in order on one
# fresh server: later ones see the threads and messages earlier ones made.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
: "${ANCHOR:?set ANCHOR to an installed copy of shared/anchor-mastra}"
ANCHOR=$(cd "$ANCHOR" && pwd)
out=${1:?usage: record-memory.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# Laid out as compat/testdata/twin/record.sh lays out its copy.
mkdir -p "$work/app/server" "$work/empty"
cp -r "$ANCHOR/lib" "$ANCHOR/package.json" "$work/app/"
cp "$repo/compat/testdata/twin/twin-server.mjs" "$ANCHOR/server/proxy.mjs" "$work/app/server/"
ln -s "$ANCHOR/node_modules" "$work/app/node_modules"

export PATH="$ANCHOR/nodebin/node_modules/.bin:$PATH" MASTRA_TELEMETRY_DISABLED=1
export NODE_OPTIONS="--import=$repo/compat/loopback-guard.mjs"
(cd "$work/app" && exec node server/twin-server.mjs memory 4502 >"$work/twin.log" 2>&1) &
pids+=($!)
(cd "$work/app" && LISTEN=4700 TARGET=4502 CAPTURE="$work/capture.jsonl" exec node server/proxy.mjs >"$work/proxy.log" 2>&1) &
pids+=($!)
for log in twin proxy; do
  for _ in $(seq 600); do
    grep -q '"ready":true\|"proxy":true' "$work/$log.log" 2>/dev/null && break
    sleep 0.1
  done
  grep -q '"ready":true\|"proxy":true' "$work/$log.log" || { cat "$work/$log.log" >&2; echo "record-memory: $log did not start" >&2; exit 1; }
done

DRIVE_BIN="$ANCHOR/node_modules/.bin/mastra" DRIVE_LOG="$work/capture.jsonl" DRIVE_CASES="$here/cases.json" \
  DRIVE_CWD="$work/empty" DRIVE_FROM=thread-help node "$here/drive.mjs" real "$out"
node -e 'fetch("http://127.0.0.1:4502/api/system/api-schema").then((r) => r.text()).then((t) => process.stdout.write(t))' \
  >"$out/full-api-schema.json"
echo "record-memory: wrote $out"
