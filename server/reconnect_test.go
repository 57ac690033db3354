package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/reconnecttest"
	"github.com/gomastra/mastra/server"
)

// TestObserveRouteReconnectLosesAndRepeatsNothing: clients of
// POST /api/agents/{agentId}/observe that drop the SSE connection at
// random frames (closing it, or cancelling the request) and reconnect
// with {runId, offset: last index + 1} read exactly the frames of an
// uninterrupted client (but deliveryAttempt, which marks live frames).
func TestObserveRouteReconnectLosesAndRepeatsNothing(t *testing.T) {
	a, err := agent.New(reconnecttest.Config(nil, 100*time.Microsecond))
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	srv := server.New(mastra.New(mastra.Config{Agents: map[string]*agent.Agent{reconnecttest.AgentID: a}, Logger: quiet}), server.Options{Logger: quiet})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	r := reconnecttest.Replicas{Runner: a, Observer: a, Read: observeOverHTTP(ts.URL + "/api/agents/" + reconnecttest.AgentID + "/observe")}
	tally := reconnecttest.Run(t, r, reconnecttest.Options{Trials: reconnecttest.Trials(), Concurrency: 16, Seed: 14})
	t.Log(tally)
	if tally.Lost != 0 || tally.Repeated != 0 || tally.Altered != 0 {
		t.Errorf("reconnecting clients: %v", tally)
	}
	if tally.Drops < tally.Trials || tally.LiveDrops == 0 {
		t.Errorf("the trials did not drop as planned (live drops are needed too): %v", tally)
	}
}

// observeOverHTTP reads a run's observe stream from url: one POST per
// reading, its SSE frames as events, to [DONE].
func observeOverHTTP(url string) reconnecttest.ObserveFunc {
	return func(ctx context.Context, runID string, offset int64) iter.Seq2[reconnecttest.Event, error] {
		return func(yield func(reconnecttest.Event, error) bool) {
			body, err := postObserve(ctx, url, runID, offset)
			if err != nil {
				yield(reconnecttest.Event{}, err)
				return
			}
			defer body.Close()
			lines := bufio.NewScanner(body)
			lines.Buffer(make([]byte, 0, 64<<10), 4<<20)
			for lines.Scan() {
				data, ok := strings.CutPrefix(lines.Text(), "data: ")
				if !ok {
					continue
				}
				if data == "[DONE]" {
					return
				}
				e, err := frameEvent(data)
				if !yield(e, err) || err != nil {
					return
				}
			}
			err = lines.Err()
			if err == nil {
				err = io.ErrUnexpectedEOF // no [DONE]
			}
			yield(reconnecttest.Event{}, err)
		}
	}
}

func postObserve(ctx context.Context, url, runID string, offset int64) (io.ReadCloser, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(fmt.Sprintf(`{"runId":%q,"offset":%d}`, runID, offset)))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return nil, fmt.Errorf("observe %s from %d: %d %s", runID, offset, resp.StatusCode, b)
	}
	return resp.Body, nil
}

// liveMark ends a frame delivered live.
const liveMark = `,"deliveryAttempt":1}`

// frameEvent is an observe frame as readers compare it: the frame
// without its live mark.
func frameEvent(data string) (reconnecttest.Event, error) {
	var f struct {
		Type  string `json:"type"`
		Index int64  `json:"index"`
	}
	if err := json.Unmarshal([]byte(data), &f); err != nil {
		return reconnecttest.Event{}, fmt.Errorf("frame %s: %w", data, err)
	}
	content, live := strings.CutSuffix(data, liveMark)
	if live {
		content += "}"
	}
	return reconnecttest.Event{Index: f.Index, Type: f.Type, Content: content, Live: live}, nil
}
