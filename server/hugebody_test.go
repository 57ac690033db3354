package server

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/internal/httpcost"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

// numberList is an input with one list of numbers.
type numberList struct {
	List []float64 `json:"list"`
}

// withListInputs registers the tool sum-list and the workflow list-wf,
// whose inputs are a numberList.
func withListInputs() fixtureOpt {
	return withRegistry(func(c *mastra.Config) {
		c.Tools["sum-list"] = tools.New(tools.Config[numberList, int]{ID: "sum-list", Description: "Counts a list.",
			Execute: func(_ tools.Context, in numberList) (int, error) { return len(in.List), nil }})
		w := workflows.New(workflows.Config{ID: "list-wf", InputSchema: workflows.MustSchemaFor[numberList]()}).
			Then(workflows.NewStep(workflows.StepConfig[numberList, numberList]{ID: "same",
				Execute: func(_ workflows.StepContext, in numberList) (numberList, error) { return in, nil }}))
		if err := w.Commit(); err != nil {
			panic(err)
		}
		c.Workflows = map[string]*workflows.Workflow{"listWf": w}
	})
}

// wrongArray is a JSON array of n strings ("x"), each a wrong element
// where a number or an object is wanted.
func wrongArray(n int) string {
	return "[" + strings.Repeat(`"x",`, n-1) + `"x"]`
}

// wrongRecord is a JSON object of n members, each a number where an
// object is wanted.
func wrongRecord(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":1`)
	}
	b.WriteString("}")
	return b.String()
}

// hugeInvalidBodies are bodies near the 4.5 MB limit whose every element
// is wrong, route by route.
var hugeInvalidBodies = []struct{ name, path, body string }{
	{"messages", "/api/agents/calc-agent/generate", `{"messages":[` + strings.Repeat("1,", 2_300_000) + `1]}`},
	{"activeTools", "/api/agents/calc-agent/generate", `{"messages":"hi","activeTools":[` + strings.Repeat("1,", 2_300_000) + `1]}`},
	{"clientTools", "/api/agents/calc-agent/stream", `{"messages":"hi","clientTools":` + wrongRecord(380_000) + `}`},
}

// hugeInvalidInputs are bodies near the 4.5 MB limit whose input (checked
// against the tool's or workflow's schema) has a wrong element per 4
// bytes. Validation stops after schema.MaxIssues of them: the answer lists
// the first ones and says that more were left out.
var hugeInvalidInputs = []struct{ name, path, body string }{
	{"tool inputData", "/api/tools/sum-list/execute", `{"data":{"list":` + wrongArray(1_100_000) + `}}`},
	{"workflow inputData", "/api/workflows/list-wf/start-async", `{"inputData":{"list":` + wrongArray(1_100_000) + `}}`},
}

// TestHugeInvalidBodiesAreBounded: a body of the largest size allowed
// whose elements are all wrong gets a small 4xx, and answering it costs
// memory of the order of the body, not of one issue per element.
func TestHugeInvalidBodiesAreBounded(t *testing.T) {
	f := newFixture(t, withListInputs())
	for _, c := range hugeInvalidBodies {
		t.Run(c.name, func(t *testing.T) {
			if int64(len(c.body)) > DefaultMaxBodyBytes {
				t.Fatalf("the body has %d bytes, over the limit", len(c.body))
			}
			rec, alloc := httpcost.Post(f.srv, c.path, c.body)
			got := rec.Body.String()
			t.Logf("%d-byte body: %d %d-byte answer, %d MB allocated", len(c.body), rec.Code, len(got), alloc>>20)
			if rec.Code/100 != 4 {
				t.Errorf("status %d: %.300s", rec.Code, got)
			}
			if len(got) > 64<<10 {
				t.Errorf("a %d-byte answer: %.300s", len(got), got)
			}
			if limit := uint64(16 * len(c.body)); alloc > limit {
				t.Errorf("allocated %d MB (limit %d MB)", alloc>>20, limit>>20)
			}
		})
	}
}

// TestHugeInvalidInputs: an input of the largest size allowed whose
// elements all fail the tool's or workflow's schema gets a small answer
// (the first schema.MaxIssues issues and a line saying more were left
// out), and answering it costs memory of the order of the body, not an
// issue per element.
func TestHugeInvalidInputs(t *testing.T) {
	f := newFixture(t, withListInputs())
	for _, c := range hugeInvalidInputs {
		t.Run(c.name, func(t *testing.T) {
			if int64(len(c.body)) > DefaultMaxBodyBytes {
				t.Fatalf("the body has %d bytes, over the limit", len(c.body))
			}
			rec, alloc := httpcost.Post(f.srv, c.path, c.body)
			got := rec.Body.String()
			t.Logf("%d-byte body: %d, %d-byte answer, %d MB allocated", len(c.body), rec.Code, len(got), alloc>>20)
			for _, want := range []string{`- list.0: Invalid input: expected number, received string\n`,
				`- list.99: Invalid input: expected number, received string\n- … more issues left out`} {
				if !strings.Contains(got, want) {
					t.Errorf("%d: no %q in %.300s", rec.Code, want, got)
				}
			}
			if strings.Contains(got, "list.100:") {
				t.Errorf("more than the first 100 issues: %.300s", got)
			}
			if len(got) > 64<<10 {
				t.Errorf("a %d-byte answer: %.300s", len(got), got)
			}
			// Decoding the input into Go values for the schema costs some
			// 25 times the body for one-byte elements (encoding/json's
			// interfaces), validating and answering next to nothing more.
			if limit := uint64(40 * len(c.body)); alloc > limit {
				t.Errorf("allocated %d MB (limit %d MB)", alloc>>20, limit>>20)
			}
		})
	}
}

// BenchmarkHugeInvalidBody is the bad-request path of an agent route for
// 1 MB bodies of wrong elements.
func BenchmarkHugeInvalidBody(b *testing.B) {
	f := newFixture(b)
	for _, c := range []struct{ name, body string }{
		{"messages", `{"messages":[` + strings.Repeat("1,", 500_000) + `1]}`},
		{"activeTools", `{"messages":"hi","activeTools":[` + strings.Repeat("1,", 500_000) + `1]}`},
		{"clientTools", `{"messages":"hi","clientTools":` + wrongRecord(80_000) + `}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.body)))
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/api/agents/calc-agent/generate", strings.NewReader(c.body))
				rec := httptest.NewRecorder()
				f.srv.ServeHTTP(rec, req)
				if rec.Code != http.StatusBadRequest {
					b.Fatal(rec.Code, rec.Body.String())
				}
			}
		})
	}
}
