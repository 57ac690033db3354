#!/usr/bin/env bash
# app-weight.sh: what an app made by `mastra init` weighs, measured from
# this checkout: the size of its binary (unstripped and stripped), a cold
# build (an empty GOCACHE: wall time and peak memory), its go.mod's
# indirect requirements, and whether its module graph holds SDKs it does
# not use.
#
#   scripts/app-weight.sh                    # the default scaffold (openai/gpt-5.6-sol)
#   scripts/app-weight.sh --model anthropic/claude-sonnet-4-5
#   scripts/app-weight.sh --dir examples/dev # an app of this repository instead
#
# Modules come from the module cache or the proxy; nothing else is
# reached. It takes minutes: the cold build compiles every dependency.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
model="openai/gpt-5.6-sol"
dir=""
while [ $# -gt 0 ]; do
	case "$1" in
	--model) model="$2"; shift 2 ;;
	--dir) dir="$2"; shift 2 ;;
	*) echo "usage: $0 [--model provider/model] [--dir path/to/main/package]" >&2; exit 2 ;;
	esac
done
work="$(mktemp -d)"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

if [ -z "$dir" ]; then
	(cd "$repo" && go build -o "$work/mastra" ./cmd/mastra)
	"$work/mastra" init "$work/app" --module example.com/app --model "$model" --mastra-path "$repo" >/dev/null
	app="$work/app"
else
	app="$repo/$dir"
fi

cd "$app"
GOCACHE="$work/gocache" /usr/bin/time -f '%e %M' -o "$work/time" go build -o "$work/app.bin" .
read -r seconds peak_kb <"$work/time"
go build -ldflags='-s -w' -o "$work/app.stripped" .
size() { stat -c %s "$1"; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1048576 }'; }

echo "app:               ${dir:-mastra init --model $model}"
echo "binary:            $(mb "$(size "$work/app.bin")") ($(mb "$(size "$work/app.stripped")") stripped)"
echo "cold build:        ${seconds} s wall, peak RSS $(mb $((peak_kb * 1024)))"
if [ -z "$dir" ]; then
	echo "go.mod indirect:   $(grep -c '// indirect' go.mod || true)"
	unused=$(go mod graph | tr ' ' '\n' | sed 's/@.*//' | sort -u |
		grep -E 'anthropic-sdk-go|google.golang.org/genai|google.golang.org/grpc|jackc/pgx|modelcontextprotocol/go-sdk|openai-go' || true)
	echo "SDKs in go mod graph: ${unused:-none}" | tr '\n' ' '
	echo
fi
