package reconnecttest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"net/http"
	"strings"
)

// HTTPObserve reads a run's observe stream from url (a server's
// POST /api/agents/{agentId}/observe): one POST {runId, offset} per
// reading, its SSE frames as events (Content is the frame without its
// live mark, deliveryAttempt), to [DONE].
func HTTPObserve(url string) ObserveFunc {
	return func(ctx context.Context, runID string, offset int64) iter.Seq2[Event, error] {
		return func(yield func(Event, error) bool) {
			body, err := postObserve(ctx, url, runID, offset)
			if err != nil {
				yield(Event{}, err)
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
			yield(Event{}, err)
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
func frameEvent(data string) (Event, error) {
	var f struct {
		Type  string `json:"type"`
		Index int64  `json:"index"`
	}
	if err := json.Unmarshal([]byte(data), &f); err != nil {
		return Event{}, fmt.Errorf("frame %s: %w", data, err)
	}
	content, live := strings.CutSuffix(data, liveMark)
	if live {
		content += "}"
	}
	return Event{Index: f.Index, Type: f.Type, Content: content, Live: live}, nil
}
