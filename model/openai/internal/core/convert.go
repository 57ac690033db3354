package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gomastra/mastra/model"
)

// JSONText compacts a tool call's input JSON ("{}" when empty), as
// JSON.stringify of the parsed input gives.
func JSONText(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "{}"
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

// ToolResultText renders a tool result output as the AI SDK's OpenAI
// providers do: text as is, json/content as JSON text, a denial as its
// reason.
func ToolResultText(o model.ToolResultOutput) (string, error) {
	switch o.Type {
	case model.OutputText, model.OutputErrorText:
		s, _ := o.Value.(string)
		return s, nil
	case model.OutputExecutionDenied:
		if o.Reason != "" {
			return o.Reason, nil
		}
		return "Tool execution denied.", nil
	case model.OutputContent:
		v := o.Value
		if v == nil {
			v = []model.ContentPart{}
		}
		b, err := json.Marshal(v)
		return string(b), err
	case model.OutputJSON, model.OutputErrorJSON:
		b, err := json.Marshal(o.Value)
		return string(b), err
	}
	return "", fmt.Errorf("unknown output type %q", o.Type)
}

// IsURL tells a part's data that is a URL (http, https or data) from
// base64 content.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "data:")
}

// DataURL is data as a URL: itself when it is one, else a base64 data URL
// of mediaType.
func DataURL(data, mediaType string) string {
	if IsURL(data) {
		return data
	}
	return "data:" + mediaType + ";base64," + data
}
