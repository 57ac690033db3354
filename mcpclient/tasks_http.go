package mcpclient

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
)

// taskRoundTripper does for streamable HTTP what taskConn does for other
// transports: in the answers it carries (a JSON body, or the events of an
// event stream), a JSON-RPC result with resultType "task" is rewritten
// by moveTaskToMeta. Only a CreateTaskResult has that resultType. A body
// or event larger than max is passed on as it is (the size guard above
// fails it).
type taskRoundTripper struct {
	base http.RoundTripper
	max  int
}

// wrapTasksHTTP routes the HTTP requests of a URL server with Tasks
// through a taskRoundTripper, under the client's own guard. The
// configured HTTPClient is copied, not modified.
func (s *server) wrapTasksHTTP() {
	if s.cfg.Tasks == nil || s.cfg.kind != kindHTTP {
		return
	}
	s.cfg.HTTPClient = wrapClient(s.cfg.HTTPClient, func(base http.RoundTripper) http.RoundTripper {
		return &taskRoundTripper{base: base, max: s.cfg.maxMessageBytes}
	})
}

func (t *taskRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || req.Method != http.MethodPost {
		return resp, err
	}
	switch mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt {
	case "application/json":
		resp.Body = t.jsonBody(resp.Body)
		resp.ContentLength = -1
		resp.Header.Del("Content-Length")
	case "text/event-stream":
		pr, pw := io.Pipe()
		go t.rewriteEvents(resp.Body, pw)
		resp.Body = &pipeBody{PipeReader: pr, src: resp.Body}
	}
	return resp, nil
}

// jsonBody rewrites a whole JSON body of at most max bytes.
func (t *taskRoundTripper) jsonBody(body io.ReadCloser) io.ReadCloser {
	head, err := io.ReadAll(io.LimitReader(body, int64(t.max)+1))
	if err != nil || len(head) > t.max {
		return readCloser{io.MultiReader(bytes.NewReader(head), body), body}
	}
	return readCloser{bytes.NewReader(rewriteMessage(head)), body}
}

// rewriteEvents copies an event stream, rewriting the data of events that
// carry a CreateTaskResult.
func (t *taskRoundTripper) rewriteEvents(src io.Reader, dst *io.PipeWriter) {
	r := bufio.NewReaderSize(src, 64<<10)
	var event bytes.Buffer
	flush := func() error {
		_, err := dst.Write(rewriteEvent(event.Bytes(), t.max))
		event.Reset()
		return err
	}
	for {
		line, err := r.ReadSlice('\n')
		if len(line) > 0 {
			event.Write(line)
			blank := len(bytes.TrimRight(line, "\r\n")) == 0 && line[len(line)-1] == '\n'
			if blank || event.Len() > t.max {
				if werr := flush(); werr != nil {
					dst.CloseWithError(werr)
					return
				}
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if event.Len() > 0 {
				_ = flush()
			}
			if err == io.EOF {
				dst.Close()
			} else {
				dst.CloseWithError(err)
			}
			return
		}
	}
}

// rewriteEvent returns an event with its data rewritten when it is a
// JSON-RPC response with a CreateTaskResult; any other event as it is.
func rewriteEvent(event []byte, max int) []byte {
	if len(event) > max || !bytes.Contains(event, []byte(`"task"`)) {
		return event
	}
	var data, rest []byte
	for line := range bytes.Lines(event) {
		trimmed := bytes.TrimRight(line, "\r\n")
		if d, ok := bytes.CutPrefix(trimmed, []byte("data:")); ok {
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, bytes.TrimPrefix(d, []byte(" "))...)
			continue
		}
		if len(trimmed) > 0 {
			rest = append(rest, line...)
		}
	}
	out := rewriteMessage(data)
	if bytes.Equal(out, data) {
		return event
	}
	rest = append(rest, "data: "...)
	rest = append(rest, out...)
	return append(rest, "\n\n"...)
}

// rewriteMessage rewrites a JSON-RPC response whose result is a
// CreateTaskResult; anything else is returned as it is.
func rewriteMessage(msg []byte) []byte {
	var resp map[string]json.RawMessage
	if json.Unmarshal(msg, &resp) != nil || resp["result"] == nil {
		return msg
	}
	moved := moveTaskToMeta(resp["result"])
	if bytes.Equal(moved, resp["result"]) {
		return msg
	}
	resp["result"] = moved
	out, err := json.Marshal(resp)
	if err != nil {
		return msg
	}
	return out
}

type readCloser struct {
	io.Reader
	c io.Closer
}

func (r readCloser) Close() error { return r.c.Close() }

// pipeBody closes the source stream with the pipe, which ends the copy.
type pipeBody struct {
	*io.PipeReader
	src io.Closer
}

func (p *pipeBody) Close() error {
	err := p.src.Close()
	p.PipeReader.Close()
	return err
}
