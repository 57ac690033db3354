package agent

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/tools"
)

// backgroundKey is the argument by which the model chooses how one call
// of an eligible tool runs.
const backgroundKey = "_background"

// backgroundFieldJSON is the schema of the "_background" argument, as
// eligible tools' input schemas get it.
const backgroundFieldJSON = `{
  "type": "object",
  "description": "Optional: override how this specific call executes (foreground, deferred, or awaited). When omitted, the tool's configured default disposition applies. The enabled boolean remains supported for compatibility.",
  "properties": {
    "enabled": {"type": "boolean", "description": "Force deferred (true) or foreground (false) execution for this call."},
    "disposition": {"type": "string", "enum": ["foreground", "deferred", "awaited"], "description": "Choose foreground, deferred, or awaited execution for this call."},
    "timeoutMs": {"type": "number", "description": "Override timeout in milliseconds for this call."},
    "maxRetries": {"type": "number", "description": "Override maximum retry attempts for this call."}
  },
  "additionalProperties": false
}`

// backgroundField validates "_background" values and is injected into
// eligible tools' schemas.
var backgroundField = schema.MustFromJSON([]byte(backgroundFieldJSON))

// backgroundOverride is a call's "_background" argument.
type backgroundOverride struct {
	Enabled     *bool             `json:"enabled"`
	Disposition tools.Disposition `json:"disposition"`
	TimeoutMs   *float64          `json:"timeoutMs"`
	MaxRetries  *float64          `json:"maxRetries"`
}

// splitBackground returns a call's arguments without the "_background"
// key (in their order) and that key's value; value is nil when the key
// is absent or null, and args come back as they are when they are not a
// JSON object.
func splitBackground(args json.RawMessage) (rest, value json.RawMessage) {
	if !bytes.Contains(args, []byte(`"`+backgroundKey+`"`)) {
		return args, nil
	}
	keys, values, ok := objectEntries(args)
	if !ok {
		return args, nil
	}
	i := slices.Index(keys, backgroundKey)
	if i < 0 {
		return args, nil
	}
	value = values[i]
	if string(value) == "null" {
		value = nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for j, k := range keys {
		if j == i {
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(values[j])
	}
	b.WriteByte('}')
	return b.Bytes(), value
}

// objectEntries are the keys and raw values of a JSON object, in order.
func objectEntries(raw json.RawMessage) ([]string, []json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, false
	}
	var keys []string
	var values []json.RawMessage
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, false
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, false
		}
		keys, values = append(keys, k), append(values, v)
	}
	return keys, values, true
}

// parseBackground validates a "_background" value; the issues are the
// model's to fix, located under "_background".
func parseBackground(value json.RawMessage) (*backgroundOverride, []schema.Issue) {
	if value == nil {
		return nil, nil
	}
	var decoded any
	dec := json.NewDecoder(bytes.NewReader(value))
	dec.UseNumber()
	if err := dec.Decode(&decoded); err != nil {
		return nil, []schema.Issue{{Code: "custom", Path: []string{backgroundKey}, Message: "Invalid JSON"}}
	}
	if _, issues := backgroundField.Validate(decoded); len(issues) > 0 {
		for i := range issues {
			issues[i].Path = append([]string{backgroundKey}, issues[i].Path...)
		}
		return nil, issues
	}
	var o backgroundOverride
	if err := json.Unmarshal(value, &o); err != nil {
		return nil, []schema.Issue{{Code: "custom", Path: []string{backgroundKey}, Message: err.Error()}}
	}
	return &o, nil
}

// ineligibleBackgroundIssue is the issue of a "_background" argument
// given to a tool that cannot run in the background.
func ineligibleBackgroundIssue() schema.Issue {
	return schema.Issue{Code: "unrecognized_keys", Message: `Unrecognized key: "` + backgroundKey + `"`}
}
