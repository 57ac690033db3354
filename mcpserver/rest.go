package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/internal/zodmsg"
	"github.com/gomastra/mastra/mastraerror"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/tools"
)

func (reg *registry) listServers(w http.ResponseWriter, r *http.Request) {
	q, issues := paginationQuery(r.URL.Query())
	if len(issues) > 0 {
		writeIssues(w, "Invalid query parameters", issues)
		return
	}
	total := len(reg.list)
	// page/perPage win; limit/offset are the older spelling.
	legacy := (q.limit != nil || q.offset != nil) && q.page == nil && q.perPage == nil
	perPage := q.perPage
	if perPage == nil {
		perPage = q.limit
	}
	page := q.page
	if page == nil && q.offset != nil && perPage != nil && *perPage > 0 {
		p := *q.offset / *perPage
		page = &p
	}
	offset := 0
	if page != nil && perPage != nil {
		offset = *page * *perPage
	}
	list := reg.list
	var next *string
	if perPage != nil {
		list = window(list, offset, *perPage)
		if offset+*perPage < total {
			var n string
			if legacy {
				n = reg.prefix + "/mcp/v0/servers?limit=" + strconv.Itoa(*perPage) + "&offset=" + strconv.Itoa(offset+*perPage)
			} else {
				nextPage := 1
				if page != nil {
					nextPage = *page + 1
				}
				n = reg.prefix + "/mcp/v0/servers?perPage=" + strconv.Itoa(*perPage) + "&page=" + strconv.Itoa(nextPage)
			}
			next = &n
		}
	}
	infos := make([]Info, len(list))
	for i, s := range list {
		infos[i] = s.Info()
	}
	writeJSON(w, http.StatusOK, struct {
		Servers    []Info  `json:"servers"`
		TotalCount int     `json:"total_count"`
		Next       *string `json:"next"`
	}{infos, total, next})
}

func window(list []*Server, offset, n int) []*Server {
	if offset >= len(list) {
		return nil
	}
	end := min(offset+n, len(list))
	return list[offset:end]
}

func (reg *registry) getServer(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	s := reg.byID[id]
	if s == nil {
		writeError(w, http.StatusNotFound, "MCP server with ID '"+id+"' not found")
		return
	}
	d := s.Detail()
	if v := r.URL.Query().Get("version"); v != "" && v != d.VersionDetail.Version {
		writeError(w, http.StatusNotFound, "MCP server with ID '"+id+"' found, but not version '"+v+"'. Available version: "+d.VersionDetail.Version)
		return
	}
	writeJSON(w, http.StatusOK, d)
}

// serverOf answers 404 for an unknown {serverId}.
func (reg *registry) serverOf(w http.ResponseWriter, r *http.Request) *Server {
	id := r.PathValue("serverId")
	s := reg.byID[id]
	if s == nil {
		writeError(w, http.StatusNotFound, "MCP server with ID '"+id+"' not found")
	}
	return s
}

func (reg *registry) listTools(w http.ResponseWriter, r *http.Request) {
	if s := reg.serverOf(w, r); s != nil {
		writeJSON(w, http.StatusOK, struct {
			Tools []ToolInfo `json:"tools"`
		}{s.Tools()})
	}
}

func (reg *registry) getTool(w http.ResponseWriter, r *http.Request) {
	s := reg.serverOf(w, r)
	if s == nil {
		return
	}
	toolID := r.PathValue("toolId")
	info, ok := s.Tool(toolID)
	if !ok {
		writeError(w, http.StatusNotFound, "Tool with ID '"+toolID+"' not found on MCP server '"+s.id+"'")
		return
	}
	writeJSON(w, http.StatusOK, info)
}

func (reg *registry) executeTool(w http.ResponseWriter, r *http.Request) {
	s := reg.serverOf(w, r)
	if s == nil {
		return
	}
	body, ok := reg.readObject(w, r)
	if !ok {
		return
	}
	rc, issues := requestContextFrom(body["requestContext"], server.AuthResource(r))
	if len(issues) > 0 {
		writeIssues(w, "Invalid request body", issues)
		return
	}
	opts := &ExecuteOptions{RequestContext: rc, ResumeData: body["resumeData"], SuspendPayload: body["suspendPayload"]}
	x, err := s.ExecuteTool(r.Context(), r.PathValue("toolId"), body["data"], opts)
	if err != nil {
		if r.Context().Err() != nil {
			return // the client went away
		}
		writeError(w, mastraerror.HTTPStatus(err), err.Error())
		return
	}
	if x.Suspended {
		writeJSON(w, http.StatusOK, struct {
			Status         string          `json:"status"`
			SuspendPayload json.RawMessage `json:"suspendPayload"`
			ResumeSchema   json.RawMessage `json:"resumeSchema,omitempty"`
		}{"suspended", orNull(x.SuspendPayload), x.ResumeSchema})
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Result json.RawMessage `json:"result,omitempty"`
	}{x.Output})
}

func (reg *registry) listResources(w http.ResponseWriter, r *http.Request) {
	if s := reg.serverOf(w, r); s != nil {
		writeJSON(w, http.StatusOK, struct {
			Resources []restResource `json:"resources"`
		}{s.listedResources()})
	}
}

func (reg *registry) readResource(w http.ResponseWriter, r *http.Request) {
	s := reg.serverOf(w, r)
	if s == nil {
		return
	}
	body, ok := reg.readObject(w, r)
	if !ok {
		return
	}
	var uri string
	if raw, has := body["uri"]; !has || json.Unmarshal(raw, &uri) != nil {
		writeIssues(w, "Invalid request body", []wire.Issue{{Field: "uri", Message: "Invalid input: expected string, received " + zodmsg.TypeOf(raw)}})
		return
	}
	contents, err := s.readForREST(r.Context(), uri)
	if err != nil {
		writeRESTError(w, s, uri, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Contents []restContent `json:"contents"`
	}{contents})
}

// readObject reads a JSON object body (empty: {}), answering Mastra's 400
// (V8's parse message for invalid JSON) or 413 itself.
func (reg *registry) readObject(w http.ResponseWriter, r *http.Request) (map[string]json.RawMessage, bool) {
	b, err := io.ReadAll(io.LimitReader(r.Body, reg.maxBody+1))
	if err != nil || int64(len(b)) > reg.maxBody {
		var mbe *http.MaxBytesError
		if int64(len(b)) > reg.maxBody || errors.As(err, &mbe) {
			writeError(w, http.StatusRequestEntityTooLarge, "Request body too large")
		} else {
			writeError(w, http.StatusBadRequest, "Failed to read request body")
		}
		return nil, false
	}
	t := bytes.TrimSpace(b)
	if len(t) == 0 {
		return map[string]json.RawMessage{}, true
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(t, &obj); err != nil || t[0] != '{' {
		if msg := wire.SyntaxError(b); msg != "" {
			writeIssues(w, "Invalid request body", []wire.Issue{{Field: "body", Message: msg}})
		} else {
			writeIssues(w, "Invalid request body", []wire.Issue{{Field: "root", Message: "Invalid input: expected object, received " + zodmsg.TypeOf(t)}})
		}
		return nil, false
	}
	return obj, true
}

// requestContextFrom decodes a body's requestContext (an object), drops
// the reserved keys clients may not set, and applies the authenticated
// resource.
func requestContextFrom(raw json.RawMessage, resource string) (*tools.RequestContext, []wire.Issue) {
	rc := tools.NewRequestContext(nil)
	if t := bytes.TrimSpace(raw); len(t) > 0 && string(t) != "null" {
		if t[0] != '{' || rc.UnmarshalJSON(t) != nil {
			return nil, []wire.Issue{{Field: "requestContext", Message: "Invalid input: expected record, received " + zodmsg.TypeOf(t)}}
		}
	}
	rc.Delete(tools.ResourceIDKey)
	rc.Delete(tools.ThreadIDKey)
	if resource != "" {
		_ = rc.Set(tools.ResourceIDKey, resource)
	}
	return rc, nil
}

// pagination is the list route's query: non-negative integers.
type pagination struct {
	page, perPage, offset, limit *int
}

// jsNumeric matches what JavaScript's Number() accepts besides "" and
// whitespace: decimal literals, Infinity, and 0x/0o/0b integers.
var jsNumeric = regexp.MustCompile(`^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|Infinity)$|^0[xX][0-9a-fA-F]+$|^0[oO][0-7]+$|^0[bB][01]+$`)

// paginationQuery parses the list route's query as Mastra's
// z.coerce.number().int().min(0) does, with Zod's messages.
func paginationQuery(q url.Values) (pagination, []wire.Issue) {
	var p pagination
	var issues []wire.Issue
	for _, f := range []struct {
		name string
		dst  **int
	}{{"page", &p.page}, {"perPage", &p.perPage}, {"offset", &p.offset}, {"limit", &p.limit}} {
		if !q.Has(f.name) {
			continue
		}
		n, msg := coerceCount(q.Get(f.name))
		if msg != "" {
			issues = append(issues, wire.Issue{Field: f.name, Message: msg})
			continue
		}
		*f.dst = &n
	}
	return p, issues
}

func coerceCount(s string) (int, string) {
	s = strings.TrimSpace(s)
	var v float64
	switch {
	case s == "":
	case !jsNumeric.MatchString(s):
		return 0, "Invalid input: expected number, received NaN"
	case len(s) > 2 && s[0] == '0' && strings.ContainsRune("xXoObB", rune(s[1])):
		u, err := strconv.ParseUint(s[2:], map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[s[1]], 64)
		if err != nil {
			v = math.Inf(1)
		} else {
			v = float64(u)
		}
	default:
		f, err := strconv.ParseFloat(strings.TrimPrefix(strings.Replace(s, "Infinity", "Inf", 1), "+"), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, "Invalid input: expected number, received NaN"
		}
		v = f
	}
	if math.IsInf(v, 0) || v != math.Trunc(v) || math.Abs(v) > 1<<53-1 {
		return 0, "Invalid input: expected int, received number"
	}
	if v < 0 {
		return 0, "Too small: expected number to be >=0"
	}
	return int(v), ""
}

func orNull(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return json.RawMessage("null")
	}
	return raw
}

// writeJSON sends v as JSON.stringify would write it (wire.AppendValue).
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := wire.AppendValue(nil, v)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "Internal Server Error")
		return
	}
	wire.WriteJSON(w, status, b)
}

// writeError sends Mastra's {"error": message}, as JSON.stringify writes
// it after encoding/json (wire.StringifyReplaced).
func writeError(w http.ResponseWriter, status int, msg string) {
	wire.WriteJSON(w, status, wire.AppendError(nil, msg, nil, wire.StringifyReplaced))
}

// writeIssues sends Mastra's 400 {"error": msg, "issues": [...]}, as
// writeError writes its strings; issues is not nil (the issues found).
func writeIssues(w http.ResponseWriter, msg string, issues []wire.Issue) {
	wire.WriteJSON(w, http.StatusBadRequest, wire.AppendError(nil, msg, issues, wire.StringifyReplaced))
}
