package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// taskUpdateParams are the params of tasks/update.
type taskUpdateParams struct {
	mcp.ParamsBase
	TaskID         string                          `json:"taskId"`
	InputResponses map[string]*ElicitationResponse `json:"inputResponses"`
}

// answerTaskInput answers the input requests of an input_required task
// with the server's elicitation handler (ServerConfig.ElicitationHandler
// or Client.OnElicitationRequest) and sends the answers with tasks/update.
// Requests in answered were answered before (the server may not have
// processed them yet) and are skipped. It returns a problem when the task
// cannot be answered: no handler, a request other than elicitation/create,
// the handler's error, or an answer that does not match the requested
// schema.
func (s *server) answerTaskInput(ctx context.Context, tool string, task *wireTask, answered map[string]bool) (problem string, err error) {
	handler := s.events.elicitationHandler(s.cfg.ElicitationHandler)
	if handler == nil {
		return "no elicitation handler answers it", nil
	}
	responses := map[string]*ElicitationResponse{}
	for key, raw := range task.InputRequests {
		if answered[key] {
			continue
		}
		var in struct {
			Method string `json:"method"`
			Params struct {
				Mode            string         `json:"mode"`
				Message         string         `json:"message"`
				RequestedSchema map[string]any `json:"requestedSchema"`
				URL             string         `json:"url"`
				ElicitationID   string         `json:"elicitationId"`
			} `json:"params"`
		}
		if err := json.Unmarshal(raw, &in); err != nil || in.Method != "elicitation/create" {
			return fmt.Sprintf("input request %q is not an elicitation", key), nil
		}
		p := in.Params
		mode := p.Mode
		if mode == "" {
			mode = "form"
		}
		req := &ElicitationRequest{Server: s.name, Tool: tool, Mode: mode, Message: p.Message,
			RequestedSchema: p.RequestedSchema, URL: p.URL, ElicitationID: p.ElicitationID}
		resp, herr := handler(ctx, req)
		if herr != nil {
			return fmt.Sprintf("the elicitation handler failed: %v", herr), nil
		}
		if problem := checkAnswer(req, resp); problem != "" {
			return problem, nil
		}
		responses[key] = resp
	}
	if len(responses) == 0 {
		return "", nil
	}
	what := fmt.Sprintf("answering task %s of tool %q on server %q", task.TaskID, tool, s.name)
	_, err = withConn(ctx, s, what, func(rctx context.Context, conn *connection) (*taskAck, error) {
		return mcp.CallCustomMethod[*taskUpdateParams, *taskAck](rctx, conn.session, "tasks/update",
			&taskUpdateParams{TaskID: task.TaskID, InputResponses: responses})
	})
	if err != nil {
		return "", err
	}
	for key := range responses {
		answered[key] = true
	}
	return "", nil
}
