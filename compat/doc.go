// Package compat is gomastra's compatibility gate: its tests prove that
// Mastra's own JavaScript client (@mastra/client-js 1.47.0) and CLI
// (mastra 1.31.0, `mastra api ...`) cannot tell the Go server from the
// TypeScript one.
//
// The tests start the Go server (package server) in-process on 127.0.0.1
// over small apps that mirror the ones the recordings were made with:
// the anchor app (the add tool, calc-agent, the double-wf and approve-wf
// workflows), the flows app (agents whose tools need approval, suspend,
// or run in the client) and the broken app (an agent whose tool always
// fails). Then they run the real Node packages against it:
//
//   - client.mjs drives @mastra/client-js through tools, agents (generate,
//     stream, client tools, approve/decline, resumeStream) and workflows,
//     checks what it got, and reports it. The Go test requires every check
//     to pass and every observation to equal, values and member order, what
//     real Mastra gave the same script (testdata/mastra-client.json), ids
//     and times aside (normalize) and the project's documented deviations
//     aside (allowances).
//   - the mastra CLI's `api` commands must print what they printed against
//     real Mastra (cmd/mastra/testdata/recorded and captured), byte for
//     byte, ids and times aside.
//   - the Go server's answer to the generate request of a run whose tool
//     failed must be real Mastra's (recorded next to the CLI's output),
//     allowances aside; this one needs no Node.
//
// The Node toolchain is pinned in package.json, package-lock.json and
// nodebin/ and installed by setup.sh. Without it the tests skip, unless
// GOMASTRA_REQUIRE_COMPAT=1 (CI), which makes them fail instead. Every Node
// process runs under loopback-guard.mjs, which refuses any connection to a
// host other than the loopback interface before it is dialled.
//
// The package has no API: it is tests, scripts and their data.
package compat
