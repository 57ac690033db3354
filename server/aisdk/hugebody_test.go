package aisdk

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gomastra/mastra/internal/httpcost"
	"github.com/gomastra/mastra/server"
)

// hugeWrongMessages is a body of about size bytes whose messages are
// all numbers: one wrong element per two bytes.
func hugeWrongMessages(size int) string {
	return `{"messages":[` + strings.Repeat("1,", size/2-10) + `1]}`
}

// TestChatRouteBoundsAHugeInvalidBody: a body of the largest size
// allowed whose messages are all wrong gets a small 400 (its first
// issues), and answering it costs memory of the order of the body, not
// of one issue per element.
func TestChatRouteBoundsAHugeInvalidBody(t *testing.T) {
	m := newTestApp(t)
	h := server.New(m, server.Options{Routes: testRoutes(m)})
	body := hugeWrongMessages(int(server.DefaultMaxBodyBytes) - 100)
	rec, alloc := httpcost.Post(h, "/chat/text-agent", body)
	if rec.Code != http.StatusBadRequest {
		t.Fatalf("status %d", rec.Code)
	}
	got := rec.Body.String()
	t.Logf("%d-byte body: %d-byte answer, %d MB allocated", len(body), len(got), alloc>>20)
	if !strings.HasPrefix(got, `{"error":"Invalid request body","issues":[{"field":"messages.0","message":"Invalid input: expected object, received number"},`) {
		t.Errorf("answer starts %.200s", got)
	}
	if len(got) > 64<<10 {
		t.Errorf("a %d-byte body got a %d-byte answer", len(body), len(got))
	}
	if limit := uint64(16 * len(body)); alloc > limit {
		t.Errorf("answering a %d-byte body allocated %d MB (limit %d MB)", len(body), alloc>>20, limit>>20)
	}
}

// BenchmarkChatRouteHugeInvalidBody is the bad-request path of the chat
// route for a 1 MB body of wrong messages.
func BenchmarkChatRouteHugeInvalidBody(b *testing.B) {
	m := newTestApp(b)
	h := server.New(m, server.Options{Routes: testRoutes(m)})
	body := hugeWrongMessages(1 << 20)
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/chat/text-agent", strings.NewReader(body))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusBadRequest {
			b.Fatal(rec.Code)
		}
	}
}
