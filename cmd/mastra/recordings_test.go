package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const recordedHost = "http://127.0.0.1:4000" // the --url of every recording
const oddHost = "http://127.0.0.1:4400"      // the odd-responses server of testdata/captured/odd.mjs

// toolErrorHost is the --url of the runs against
// testdata/captured/server-toolerror.mjs, whose agent's tool always fails.
const toolErrorHost = "http://127.0.0.1:4600"

// memoryHost is the --url of the runs against real Mastra's memory app
// (testdata/captured/record-memory.sh): the thread and memory commands.
const memoryHost = "http://127.0.0.1:4700"

// splitRecordedCommand turns a recorded command line back into arguments:
// words split on spaces, except that the JSON input (from the first word
// starting with '{') is one argument, as it was when recorded.
func splitRecordedCommand(line string) []string {
	words := strings.Split(strings.TrimPrefix(line, "mastra "), " ")
	for i, w := range words {
		if strings.HasPrefix(w, "{") {
			return append(words[:i:i], strings.Join(words[i:], " "))
		}
	}
	return words
}

// TestRecordedCLI replays spec/http/cli (Mastra 1.71's CLI against the
// reference server, copied to testdata/recorded): every command's stdout,
// stderr and exit code must match byte for byte, and its requests must be
// the recorded ones.
func TestRecordedCLI(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "recorded", "*.http"))
	var exchanges []exchange
	for _, f := range files {
		exchanges = append(exchanges, loadHTTPFile(t, f))
	}
	transcripts, _ := filepath.Glob(filepath.Join("testdata", "recorded", "*.txt"))
	if len(files) == 0 || len(transcripts) == 0 {
		t.Fatal("no recordings in testdata/recorded")
	}
	for _, path := range transcripts {
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want := loadTranscript(t, path)
			srv, _ := newReplayServer(t, exchanges, false)
			args := splitRecordedCommand(want.command)
			for i, a := range args {
				args[i] = strings.Replace(a, recordedHost, srv.URL, 1)
			}
			stdout, stderr, code := runCLI(t, testConfig(t, "", nil), args...)
			diffText(t, "stdout", stdout, want.stdout)
			diffText(t, "stderr", stderr, want.stderr)
			if code != want.code {
				t.Errorf("exit code %d, want %d", code, want.code)
			}
		})
	}
}

// TestCapturedCLI replays testdata/captured: more runs of the real Mastra
// CLI (mastra 1.31.0, the anchor's) recorded for this port, with the HTTP
// exchanges each made. Runs against the odd-responses server (hangs,
// non-JSON bodies, unusual numbers, pagination, workflow statuses) use
// oddHandler, its Go twin.
func TestCapturedCLI(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "captured", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases [][2]json.RawMessage
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 50 {
		t.Fatalf("only %d cases", len(cases))
	}
	odd := httptest.NewServer(oddHandler())
	t.Cleanup(odd.Close)
	for _, c := range cases {
		var name string
		var args []string
		if err := json.Unmarshal(c[0], &name); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(c[1], &args); err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			base := filepath.Join("testdata", "captured", name)
			want := loadTranscript(t, base+".txt")
			exchanges := loadJSONL(t, base+".jsonl")
			srv, rep := newReplayServer(t, exchanges, true)
			args := append([]string(nil), args...)
			for i, a := range args {
				switch {
				case strings.HasPrefix(a, recordedHost):
					args[i] = srv.URL + strings.TrimPrefix(a, recordedHost)
				case strings.HasPrefix(a, toolErrorHost):
					args[i] = srv.URL + strings.TrimPrefix(a, toolErrorHost)
				case strings.HasPrefix(a, memoryHost):
					args[i] = srv.URL + strings.TrimPrefix(a, memoryHost)
				case strings.HasPrefix(a, oddHost):
					args[i] = odd.URL + strings.TrimPrefix(a, oddHost)
				case a == "http://127.0.0.1:1":
					args[i] = closedURL(t)
				}
			}
			stdout, stderr, code := runCLI(t, testConfig(t, "", nil), args...)
			diffText(t, "stdout", stdout, want.stdout)
			diffText(t, "stderr", stderr, want.stderr)
			if code != want.code {
				t.Errorf("exit code %d, want %d", code, want.code)
			}
			if left := rep.unused(); len(left) > 0 {
				t.Errorf("%d recorded requests not made, first %s %s", len(left), left[0].method, left[0].url)
			}
		})
	}
}

// oddHandler answers as testdata/captured/odd.mjs does.
func oddHandler() http.Handler {
	json := func(w http.ResponseWriter, body string) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch p := r.URL.Path; {
		case strings.HasPrefix(p, "/hang"):
			<-r.Context().Done() // never answers; the client gives up
		case p == "/text/api/tools":
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte("boom"))
		case p == "/empty/api/tools/x":
			w.WriteHeader(http.StatusNotFound)
		case p == "/empty200/api/tools/x":
			w.WriteHeader(http.StatusOK)
		case p == "/nums/api/tools/x":
			json(w, "{\"b\":1,\"2\":\"two\",\"1\":\"one\",\"a\":[1e21,1e-7,0.1,-0,1.0,1E400,123456789012345678901234],\"s\":\"<&>\u2028\u00e9\\ud800\",\"b\":2}")
		case p == "/list/api/agents":
			json(w, `{"page":{"total":10,"page":2,"perPage":3,"hasMore":true},"x":[1,2],"y":{"z":1}}`)
		case p == "/runs/api/workflows/w/runs":
			json(w, `{"runs":[{"status":"completed","x":[{"status":"WAITING"}]},{"status":"constructor"},{"status":"__proto__"},{"status":"weird"}],"total":7}`)
		case p == "/schema/api/system/api-schema":
			json(w, `{"routes":[]}`)
		case p == "/badschema/api/system/api-schema":
			json(w, `{"x":1}`)
		default:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"error":"nf"}`))
		}
	})
}
