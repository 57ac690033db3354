#!/usr/bin/env bash
# Reruns the captures: ./run.sh /path/to/anchor-mastra-copy (already set up with ./setup.sh).
# Copies the .mjs files into the anchor (so @mastra/* resolve from its node_modules), runs
# capture.mjs under the loopback-only namespace, and copies the .jsonl results back here.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
anchor=${1:?usage: run.sh ANCHOR_DIR}
mkdir -p "$anchor/observe-capture/out"
cp "$here"/app.mjs "$here"/capture.mjs "$anchor/observe-capture/"
source "$anchor/env.sh"
cd "$anchor/observe-capture"
/work/shared/netns.sh -- env PATH="$PATH" MASTRA_TELEMETRY_DISABLED=1 node capture.mjs out
cp out/*.jsonl "$here/"
