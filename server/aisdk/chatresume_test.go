package aisdk

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/gomastra/mastra/server"
)

// TestChatRouteV6Approvals: an AI SDK v6 client answers the approval on
// the tool part; a declined call is reported denied, and an answer the
// history repeats after its run went on is skipped.
func TestChatRouteV6Approvals(t *testing.T) {
	m := newTestApp(t)
	ts, client := startServer(t, m, server.Options{Routes: testRoutes(m)})
	url := ts.URL + "/chat-v6/file-agent"
	ask := func() (string, string) {
		_, body, frames := post(t, client, url, userChat("Delete /tmp/a.txt", ""))
		req := ofType(frames, PartToolApprovalRequest)
		if len(req) != 1 {
			t.Fatalf("approval requests in %s", body)
		}
		return req[0]["approvalId"].(string), ofType(frames, PartStart)[0]["messageId"].(string)
	}
	answer := func(approvalID, messageID string, approved bool) string {
		return `{"id":"chat-1","trigger":"submit-message","messages":[` +
			`{"id":"msg-1","role":"user","parts":[{"type":"text","text":"Delete /tmp/a.txt"}]},` +
			`{"id":"` + messageID + `","role":"assistant","parts":[{"type":"step-start"},{"type":"tool-deleteFile","toolCallId":"call-del","state":"approval-responded","input":{"path":"/tmp/a.txt"},` +
			`"approval":{"id":"` + approvalID + `","approved":` + fmt.Sprint(approved) + `,"reason":"not that one"}}]}]}`
	}
	approvalID, messageID := ask()
	status, body, frames := post(t, client, url, answer(approvalID, messageID, false))
	if status != http.StatusOK {
		t.Fatalf("%d %s", status, body)
	}
	if ofType(frames, PartStart)[0]["messageId"] != messageID {
		t.Errorf("the resumed response does not continue message %s: %s", messageID, body)
	}
	if d := ofType(frames, PartToolOutputDenied); len(d) != 1 || d[0]["toolCallId"] != "call-del" {
		t.Errorf("denied parts %v in %s", d, body)
	}
	if f := ofType(frames, PartFinish); len(f) != 1 || f[0]["finishReason"] != "stop" {
		t.Errorf("finish parts %v", f)
	}
	// The same answer again: nothing waits any more.
	status, body, _ = post(t, client, url, answer(approvalID, messageID, false))
	if status != http.StatusNotFound {
		t.Errorf("a stale answer: %d %s", status, body)
	}
}
