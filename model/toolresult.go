package model

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
)

// Tool result output types (ToolResultOutput.Type).
const (
	OutputText            = "text"
	OutputJSON            = "json"
	OutputContent         = "content"
	OutputErrorText       = "error-text"
	OutputErrorJSON       = "error-json"
	OutputExecutionDenied = "execution-denied"
)

// Content part types (ContentPart.Type) of a "content" output.
const (
	PartText        = "text"
	PartImageURL    = "image-url"
	PartImageData   = "image-data"
	PartImageFileID = "image-file-id"
	PartFileURL     = "file-url"
	PartFileData    = "file-data"
	PartFileID      = "file-id"
	PartCustom      = "custom"
	// PartMedia is the AI SDK V2 multimodal part ({data, mediaType}),
	// deprecated in the AI SDK v6 but the form Mastra stores normalised
	// binary parts in (see ToolResultOutput.Normalize).
	PartMedia = "media"
)

// Media types Normalize uses when a binary part does not name one.
const (
	DefaultImageMediaType = "image/jpeg"
	DefaultFileMediaType  = "application/octet-stream"
)

// ErrInvalidToolResultOutput is wrapped by every error ParseToolResultOutput
// and the UnmarshalJSON methods return for a value of the wrong shape.
var ErrInvalidToolResultOutput = errors.New("invalid tool result output")

// ToolResultOutput is what the model sees for a tool result: the AI SDK's
// {type, value} envelope, and what a tool's toModelOutput returns.
//
// Value depends on Type:
//
//   - "text", "error-text": a string.
//   - "json", "error-json": any JSON value (nil is JSON null).
//   - "content": a []ContentPart.
//   - "execution-denied": unused; Reason holds the optional denial reason.
//
// ProviderOptions (provider name → options object) is marshalled for every
// type but "content", which has no output-level options in the AI SDK.
type ToolResultOutput struct {
	Type            string         `json:"type"`
	Value           any            `json:"value"`
	Reason          string         `json:"reason,omitempty"`
	ProviderOptions map[string]any `json:"providerOptions,omitempty"`
}

// ContentPart is one element of a "content" tool result output. Only the
// fields of its Type are meaningful, and only those are marshalled:
//
//	text           Text
//	image-url      URL, MediaType (optional; a Mastra extension)
//	image-data     Data, MediaType
//	image-file-id  FileID
//	file-url       URL
//	file-data      Data, MediaType, Filename (optional)
//	file-id        FileID
//	media          Data, MediaType
//	custom         (nothing but ProviderOptions)
//
// Data is base64-encoded, except in a "media" part made by Normalize from a
// data: URI "image-url" part, where it is the whole data: URI, as Mastra
// stores it. FileID is a string, or a map[string]string from provider name to
// that provider's file id. ProviderOptions is allowed on every type.
type ContentPart struct {
	Type            string         `json:"type"`
	Text            string         `json:"text,omitempty"`
	URL             string         `json:"url,omitempty"`
	Data            string         `json:"data,omitempty"`
	MediaType       string         `json:"mediaType,omitempty"`
	Filename        string         `json:"filename,omitempty"`
	FileID          any            `json:"fileId,omitempty"`
	ProviderOptions map[string]any `json:"providerOptions,omitempty"`
}

// TextOutput returns a {type: "text", value: s} output.
func TextOutput(s string) ToolResultOutput { return ToolResultOutput{Type: OutputText, Value: s} }

// JSONOutput returns a {type: "json", value: v} output. v must marshal to
// JSON; nil is JSON null.
func JSONOutput(v any) ToolResultOutput { return ToolResultOutput{Type: OutputJSON, Value: v} }

// ContentOutput returns a {type: "content", value: parts} output.
func ContentOutput(parts ...ContentPart) ToolResultOutput {
	if parts == nil {
		parts = []ContentPart{}
	}
	return ToolResultOutput{Type: OutputContent, Value: parts}
}

// ErrorTextOutput returns a {type: "error-text", value: s} output.
func ErrorTextOutput(s string) ToolResultOutput {
	return ToolResultOutput{Type: OutputErrorText, Value: s}
}

// ErrorJSONOutput returns a {type: "error-json", value: v} output.
func ErrorJSONOutput(v any) ToolResultOutput {
	return ToolResultOutput{Type: OutputErrorJSON, Value: v}
}

// ExecutionDeniedOutput returns a {type: "execution-denied", reason?} output;
// an empty reason is omitted.
func ExecutionDeniedOutput(reason string) ToolResultOutput {
	return ToolResultOutput{Type: OutputExecutionDenied, Reason: reason}
}

// TextPart returns a {type: "text", text} part.
func TextPart(text string) ContentPart { return ContentPart{Type: PartText, Text: text} }

// ImageURLPart returns a {type: "image-url", url} part. url may be a remote
// URL or a data: URI (which Normalize turns into a "media" part).
func ImageURLPart(url string) ContentPart { return ContentPart{Type: PartImageURL, URL: url} }

// ImageDataPart returns a {type: "image-data", data, mediaType} part holding
// data base64-encoded (standard encoding, with padding).
func ImageDataPart(data []byte, mediaType string) ContentPart {
	return ContentPart{Type: PartImageData, Data: base64.StdEncoding.EncodeToString(data), MediaType: mediaType}
}

// ImageFileIDPart returns a {type: "image-file-id", fileId} part.
func ImageFileIDPart(id string) ContentPart { return ContentPart{Type: PartImageFileID, FileID: id} }

// ImageFileIDPartByProvider returns an "image-file-id" part whose fileId maps
// provider names (e.g. "openai", "anthropic") to that provider's file id.
func ImageFileIDPartByProvider(ids map[string]string) ContentPart {
	return ContentPart{Type: PartImageFileID, FileID: ids}
}

// FileURLPart returns a {type: "file-url", url} part.
func FileURLPart(url string) ContentPart { return ContentPart{Type: PartFileURL, URL: url} }

// FileDataPart returns a {type: "file-data", data, mediaType} part holding
// data base64-encoded. Set Filename on the result to name the file.
func FileDataPart(data []byte, mediaType string) ContentPart {
	return ContentPart{Type: PartFileData, Data: base64.StdEncoding.EncodeToString(data), MediaType: mediaType}
}

// FileIDPart returns a {type: "file-id", fileId} part.
func FileIDPart(id string) ContentPart { return ContentPart{Type: PartFileID, FileID: id} }

// FileIDPartByProvider returns a "file-id" part whose fileId maps provider
// names to that provider's file id.
func FileIDPartByProvider(ids map[string]string) ContentPart {
	return ContentPart{Type: PartFileID, FileID: ids}
}

// MediaPart returns a {type: "media", data, mediaType} part; base64Data must
// already be base64-encoded.
func MediaPart(base64Data, mediaType string) ContentPart {
	return ContentPart{Type: PartMedia, Data: base64Data, MediaType: mediaType}
}

// CustomPart returns a {type: "custom", providerOptions} part: a
// provider-specific part described entirely by its provider options.
func CustomPart(providerOptions map[string]any) ContentPart {
	return ContentPart{Type: PartCustom, ProviderOptions: providerOptions}
}

// WithProviderOptions returns a copy of p with ProviderOptions set to opts.
func (p ContentPart) WithProviderOptions(opts map[string]any) ContentPart {
	p.ProviderOptions = opts
	return p
}

// Parts returns the parts of a "content" output, or nil for any other output.
func (o ToolResultOutput) Parts() []ContentPart {
	if o.Type != OutputContent {
		return nil
	}
	parts, _ := o.Value.([]ContentPart)
	return parts
}

// Normalize returns o with Mastra's toModelOutput normalisation applied to
// the parts of a "content" output (other outputs are returned unchanged):
//
//   - "image-data" → {type: "media", data, mediaType}, mediaType defaulting
//     to image/jpeg;
//   - "file-data" → {type: "media", data, mediaType}, mediaType defaulting to
//     application/octet-stream (the filename is dropped: "media" has none);
//   - "image-url" whose URL starts with "data:" → {type: "media", data: the
//     whole URI, mediaType}, mediaType being the part's own MediaType, else
//     the one the URI declares (up to the first ';' or ','), else image/jpeg;
//   - everything else (remote image URLs, file URLs, file ids, text, custom,
//     media) unchanged.
//
// Provider options are kept on converted parts. Normalize is idempotent and
// does not modify o's part slice.
func (o ToolResultOutput) Normalize() ToolResultOutput {
	if o.Type != OutputContent {
		return o
	}
	parts, ok := o.Value.([]ContentPart)
	if !ok {
		return o
	}
	out := make([]ContentPart, len(parts))
	for i, p := range parts {
		out[i] = p.Normalize()
	}
	o.Value = out
	return o
}

// Normalize returns the normalised form of one content part; see
// ToolResultOutput.Normalize for the rules.
func (p ContentPart) Normalize() ContentPart {
	switch p.Type {
	case PartImageData:
		return ContentPart{Type: PartMedia, Data: p.Data, MediaType: orDefault(p.MediaType, DefaultImageMediaType), ProviderOptions: p.ProviderOptions}
	case PartFileData:
		return ContentPart{Type: PartMedia, Data: p.Data, MediaType: orDefault(p.MediaType, DefaultFileMediaType), ProviderOptions: p.ProviderOptions}
	case PartImageURL:
		if !strings.HasPrefix(p.URL, "data:") {
			return p
		}
		mt := p.MediaType
		if mt == "" {
			mt = orDefault(dataURIMediaType(p.URL), DefaultImageMediaType)
		}
		return ContentPart{Type: PartMedia, Data: p.URL, MediaType: mt, ProviderOptions: p.ProviderOptions}
	}
	return p
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// dataURIMediaType returns the media type a data: URI declares: the text
// between "data:" and the first ';' or ','. It returns "" when there is none
// (or the URI has no ',' or ';' at all, i.e. is malformed).
func dataURIMediaType(uri string) string {
	rest := uri[len("data:"):]
	end := strings.IndexAny(rest, ";,")
	if end < 0 {
		return ""
	}
	return rest[:end]
}

// ---------------------------------------------------------------------------
// JSON encoding

type providerOpts = map[string]any

// MarshalJSON encodes o with exactly the fields of its type, in the AI SDK's
// field order: {type, value, providerOptions?}, {type, reason?,
// providerOptions?} for "execution-denied", {type, value} for "content" (a nil
// part list encodes as []).
func (o ToolResultOutput) MarshalJSON() ([]byte, error) {
	switch o.Type {
	case OutputExecutionDenied:
		return json.Marshal(struct {
			Type            string       `json:"type"`
			Reason          string       `json:"reason,omitempty"`
			ProviderOptions providerOpts `json:"providerOptions,omitempty"`
		}{o.Type, o.Reason, o.ProviderOptions})
	case OutputContent:
		v := o.Value
		if v == nil {
			v = []ContentPart{}
		}
		return json.Marshal(struct {
			Type  string `json:"type"`
			Value any    `json:"value"`
		}{o.Type, v})
	default:
		return json.Marshal(struct {
			Type            string       `json:"type"`
			Value           any          `json:"value"`
			ProviderOptions providerOpts `json:"providerOptions,omitempty"`
		}{o.Type, o.Value, o.ProviderOptions})
	}
}

// UnmarshalJSON decodes and validates one output (as ParseToolResultOutput
// does, but without normalising, so a round trip is lossless). JSON numbers
// inside "json" values decode as float64; parts decode into []ContentPart;
// file ids given per provider decode as map[string]string. Unknown fields
// are ignored.
func (o *ToolResultOutput) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	out, err := parseOutput(v)
	if err != nil {
		return err
	}
	*o = out
	return nil
}

// MarshalJSON encodes p with exactly the fields of its type (see
// ContentPart); required fields are always present, optional ones only when
// set. A part of an unknown type encodes every non-empty field.
func (p ContentPart) MarshalJSON() ([]byte, error) {
	po := p.ProviderOptions
	switch p.Type {
	case PartText:
		return json.Marshal(struct {
			Type            string       `json:"type"`
			Text            string       `json:"text"`
			ProviderOptions providerOpts `json:"providerOptions,omitempty"`
		}{p.Type, p.Text, po})
	case PartImageData, PartMedia:
		return json.Marshal(struct {
			Type            string       `json:"type"`
			Data            string       `json:"data"`
			MediaType       string       `json:"mediaType"`
			ProviderOptions providerOpts `json:"providerOptions,omitempty"`
		}{p.Type, p.Data, p.MediaType, po})
	case PartFileData:
		return json.Marshal(struct {
			Type            string       `json:"type"`
			Data            string       `json:"data"`
			MediaType       string       `json:"mediaType"`
			Filename        string       `json:"filename,omitempty"`
			ProviderOptions providerOpts `json:"providerOptions,omitempty"`
		}{p.Type, p.Data, p.MediaType, p.Filename, po})
	case PartImageURL:
		return json.Marshal(struct {
			Type            string       `json:"type"`
			URL             string       `json:"url"`
			MediaType       string       `json:"mediaType,omitempty"`
			ProviderOptions providerOpts `json:"providerOptions,omitempty"`
		}{p.Type, p.URL, p.MediaType, po})
	case PartFileURL:
		return json.Marshal(struct {
			Type            string       `json:"type"`
			URL             string       `json:"url"`
			ProviderOptions providerOpts `json:"providerOptions,omitempty"`
		}{p.Type, p.URL, po})
	case PartFileID, PartImageFileID:
		return json.Marshal(struct {
			Type            string       `json:"type"`
			FileID          any          `json:"fileId"`
			ProviderOptions providerOpts `json:"providerOptions,omitempty"`
		}{p.Type, p.FileID, po})
	case PartCustom:
		return json.Marshal(struct {
			Type            string       `json:"type"`
			ProviderOptions providerOpts `json:"providerOptions,omitempty"`
		}{p.Type, po})
	default:
		type plain ContentPart // drops the methods, keeps the omitempty tags
		return json.Marshal(plain(p))
	}
}

// UnmarshalJSON decodes and validates one content part (without
// normalising it). Unknown fields are ignored; an unknown part type is an
// error.
func (p *ContentPart) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	part, err := parsePart(v, "content part")
	if err != nil {
		return err
	}
	*p = part
	return nil
}

// ---------------------------------------------------------------------------
// Validation

// ParseToolResultOutput validates v as a tool result output and returns it
// normalised (see ToolResultOutput.Normalize).
//
// v is normally a decoded JSON value (a map[string]any with "type" and the
// fields of that type, as a dynamic tool's toModelOutput or a JavaScript
// client produces it); a ToolResultOutput, *ToolResultOutput or
// json.RawMessage is accepted too. The shapes are the AI SDK v6 ones:
//
//   - text, error-text: value must be a string;
//   - json, error-json: value must be present and a JSON value (null allowed);
//   - execution-denied: reason, when present, must be a string;
//   - content: value must be an array of parts; each part needs its type's
//     required fields as strings (text: text; image-url, file-url: url;
//     media: data and mediaType; image-data, file-data: data; file-id,
//     image-file-id: fileId, a string or an object of strings); mediaType,
//     filename and, on image-url, mediaType are optional strings;
//   - providerOptions, on the output or a part, must be an object of objects.
//
// Unknown fields are dropped, as the AI SDK's schema does. The error wraps
// ErrInvalidToolResultOutput and names the offending field.
func ParseToolResultOutput(v any) (ToolResultOutput, error) {
	switch t := v.(type) {
	case *ToolResultOutput:
		if t == nil {
			return ToolResultOutput{}, invalid("got a nil *ToolResultOutput")
		}
		return parseTyped(*t)
	case ToolResultOutput:
		return parseTyped(t)
	case json.RawMessage:
		var o ToolResultOutput
		if err := json.Unmarshal(t, &o); err != nil {
			if errors.Is(err, ErrInvalidToolResultOutput) {
				return ToolResultOutput{}, err
			}
			return ToolResultOutput{}, fmt.Errorf("%w: %v", ErrInvalidToolResultOutput, err)
		}
		return o.Normalize(), nil
	}
	out, err := parseOutput(v)
	if err != nil {
		return ToolResultOutput{}, err
	}
	return out.Normalize(), nil
}

// parseTyped validates a Go-built output by checking its JSON form. The
// original Value is kept (so a Go struct passed to JSONOutput stays that
// struct), except for "content", whose parts are taken from the checked form.
func parseTyped(o ToolResultOutput) (ToolResultOutput, error) {
	b, err := json.Marshal(o)
	if err != nil {
		return ToolResultOutput{}, fmt.Errorf("%w: %v", ErrInvalidToolResultOutput, err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return ToolResultOutput{}, fmt.Errorf("%w: %v", ErrInvalidToolResultOutput, err)
	}
	checked, err := parseOutput(v)
	if err != nil {
		return ToolResultOutput{}, err
	}
	if o.Type == OutputContent || o.Type == OutputExecutionDenied {
		return checked.Normalize(), nil
	}
	checked.Value = o.Value
	checked.ProviderOptions = o.ProviderOptions
	return checked.Normalize(), nil
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidToolResultOutput, fmt.Sprintf(format, args...))
}

const outputTypes = "text, json, content, error-text, error-json, execution-denied"

const partTypes = "text, image-url, image-data, image-file-id, file-url, file-data, file-id, media, custom"

func parseOutput(v any) (ToolResultOutput, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return ToolResultOutput{}, invalid("expected an object with a \"type\" field, got %s", describe(v))
	}
	typ, err := requiredString(m, "type", "output")
	if err != nil {
		return ToolResultOutput{}, err
	}
	out := ToolResultOutput{Type: typ}
	if typ != OutputContent {
		po, err := parseProviderOptions(m, typ+" output")
		if err != nil {
			return ToolResultOutput{}, err
		}
		out.ProviderOptions = po
	}
	where := typ + " output"
	switch typ {
	case OutputText, OutputErrorText:
		s, err := requiredString(m, "value", where)
		if err != nil {
			return ToolResultOutput{}, err
		}
		out.Value = s
	case OutputJSON, OutputErrorJSON:
		val, present := m["value"]
		if !present {
			return ToolResultOutput{}, invalid("%s: \"value\" is required", where)
		}
		if err := checkJSONValue(val, "value"); err != nil {
			return ToolResultOutput{}, invalid("%s: %v", where, err)
		}
		out.Value = val
	case OutputExecutionDenied:
		r, err := optionalString(m, "reason", where)
		if err != nil {
			return ToolResultOutput{}, err
		}
		out.Reason = r
	case OutputContent:
		raw, present := m["value"]
		if !present {
			return ToolResultOutput{}, invalid("%s: \"value\" is required", where)
		}
		items, ok := raw.([]any)
		if !ok {
			if typed, ok := raw.([]ContentPart); ok {
				items = make([]any, len(typed))
				for i, p := range typed {
					items[i] = p
				}
			} else {
				return ToolResultOutput{}, invalid("%s: \"value\" must be an array of parts, got %s", where, describe(raw))
			}
		}
		parts := make([]ContentPart, 0, len(items))
		for i, item := range items {
			p, err := parsePart(item, fmt.Sprintf("content part %d", i))
			if err != nil {
				return ToolResultOutput{}, err
			}
			parts = append(parts, p)
		}
		out.Value = parts
	default:
		return ToolResultOutput{}, invalid("unknown output type %q (want one of %s)", typ, outputTypes)
	}
	return out, nil
}

func parsePart(v any, where string) (ContentPart, error) {
	if p, ok := v.(ContentPart); ok {
		b, err := json.Marshal(p)
		if err != nil {
			return ContentPart{}, fmt.Errorf("%w: %s: %v", ErrInvalidToolResultOutput, where, err)
		}
		v = nil
		if err := json.Unmarshal(b, &v); err != nil {
			return ContentPart{}, fmt.Errorf("%w: %s: %v", ErrInvalidToolResultOutput, where, err)
		}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return ContentPart{}, invalid("%s: expected an object with a \"type\" field, got %s", where, describe(v))
	}
	typ, err := requiredString(m, "type", where)
	if err != nil {
		return ContentPart{}, err
	}
	where = fmt.Sprintf("%s (%s)", where, typ)
	p := ContentPart{Type: typ}
	if p.ProviderOptions, err = parseProviderOptions(m, where); err != nil {
		return ContentPart{}, err
	}
	switch typ {
	case PartText:
		p.Text, err = requiredString(m, "text", where)
	case PartImageURL:
		if p.URL, err = requiredString(m, "url", where); err == nil {
			p.MediaType, err = optionalString(m, "mediaType", where)
		}
	case PartFileURL:
		p.URL, err = requiredString(m, "url", where)
	case PartMedia:
		if p.Data, err = requiredData(m, where); err == nil {
			p.MediaType, err = requiredString(m, "mediaType", where)
		}
	case PartImageData:
		if p.Data, err = requiredData(m, where); err == nil {
			p.MediaType, err = optionalString(m, "mediaType", where)
		}
	case PartFileData:
		if p.Data, err = requiredData(m, where); err == nil {
			if p.MediaType, err = optionalString(m, "mediaType", where); err == nil {
				p.Filename, err = optionalString(m, "filename", where)
			}
		}
	case PartFileID, PartImageFileID:
		p.FileID, err = parseFileID(m, where)
	case PartCustom:
	default:
		return ContentPart{}, invalid("%s: unknown part type (want one of %s)", where, partTypes)
	}
	if err != nil {
		return ContentPart{}, err
	}
	return p, nil
}

func requiredString(m map[string]any, key, where string) (string, error) {
	v, present := m[key]
	if !present {
		return "", invalid("%s: %q is required", where, key)
	}
	s, ok := v.(string)
	if !ok {
		return "", invalid("%s: %q must be a string, got %s", where, key, describe(v))
	}
	return s, nil
}

func optionalString(m map[string]any, key, where string) (string, error) {
	v, present := m[key]
	if !present || v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", invalid("%s: %q must be a string, got %s", where, key, describe(v))
	}
	return s, nil
}

// requiredData reads "data": a base64 string, or raw bytes (from a Go
// caller), which are encoded.
func requiredData(m map[string]any, where string) (string, error) {
	if b, ok := m["data"].([]byte); ok {
		return base64.StdEncoding.EncodeToString(b), nil
	}
	return requiredString(m, "data", where)
}

func parseFileID(m map[string]any, where string) (any, error) {
	v, present := m["fileId"]
	if !present {
		return nil, invalid("%s: \"fileId\" is required", where)
	}
	switch t := v.(type) {
	case string:
		return t, nil
	case map[string]string:
		return t, nil
	case map[string]any:
		ids := make(map[string]string, len(t))
		for k, x := range t {
			s, ok := x.(string)
			if !ok {
				return nil, invalid("%s: \"fileId\".%s must be a string, got %s", where, k, describe(x))
			}
			ids[k] = s
		}
		return ids, nil
	}
	return nil, invalid("%s: \"fileId\" must be a string or an object of strings, got %s", where, describe(v))
}

// parseProviderOptions checks "providerOptions": absent/null, or an object
// whose values are all objects (provider name → options).
func parseProviderOptions(m map[string]any, where string) (map[string]any, error) {
	v, present := m["providerOptions"]
	if !present || v == nil {
		return nil, nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, invalid("%s: \"providerOptions\" must be an object, got %s", where, describe(v))
	}
	for k, x := range obj {
		if _, ok := x.(map[string]any); !ok {
			return nil, invalid("%s: \"providerOptions\".%s must be an object, got %s", where, k, describe(x))
		}
		if err := checkJSONValue(x, "providerOptions."+k); err != nil {
			return nil, invalid("%s: %v", where, err)
		}
	}
	return obj, nil
}

// checkJSONValue reports whether v is a JSON value: what encoding/json
// decodes (nil, bool, float64, json.Number, string, []any, map[string]any),
// Go numbers, or anything else that marshals to JSON.
func checkJSONValue(v any, path string) error {
	switch t := v.(type) {
	case nil, bool, string, json.Number,
		int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return nil
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return fmt.Errorf("%s: %v is not a JSON number", path, t)
		}
		return nil
	case float32:
		return checkJSONValue(float64(t), path)
	case []any:
		for i, x := range t {
			if err := checkJSONValue(x, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	case map[string]any:
		for k, x := range t {
			if err := checkJSONValue(x, path+"."+k); err != nil {
				return err
			}
		}
		return nil
	}
	if _, err := json.Marshal(v); err != nil {
		return fmt.Errorf("%s: not a JSON value (%T): %v", path, v, err)
	}
	return nil
}

// describe names the JSON kind of a value for error messages.
func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, float32, json.Number, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return fmt.Sprintf("a %T", v)
}

// Compile-time checks that the JSON methods have the expected receivers.
var (
	_ json.Marshaler   = ToolResultOutput{}
	_ json.Unmarshaler = (*ToolResultOutput)(nil)
	_ json.Marshaler   = ContentPart{}
	_ json.Unmarshaler = (*ContentPart)(nil)
)
