// Package core is what the Responses model (package openai) and the Chat
// Completions model (package chat) share, and the embedding model
// (package embedding) with them: the client options built from a
// Config, the HTTP error type, the driving of a server-sent event stream
// (and the lenient JSON member types its events are decoded into), the
// provider-option keys, per-call request options and the prompt
// conversions both APIs make the same way.
//
// It imports only the SDK's light packages (option, responses,
// packages/ssestream), never its root package
// github.com/openai/openai-go/v3, so that package openai stays free of it.
package core

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/responses"

	"github.com/gomastra/mastra/model"
)

// DefaultBaseURL is OpenAI's API.
const DefaultBaseURL = "https://api.openai.com/v1"

// Config mirrors the public openai.Config field for field, so that a
// Config converts to it (core.Config(cfg)).
type Config struct {
	APIKey     string
	BaseURL    string
	Headers    map[string]string
	HTTPClient *http.Client
	MaxRetries *int
	Provider   string
}

// Base is what every model of the two packages knows besides its client:
// its model id and its provider id.
type Base struct {
	modelID, provider string
}

// Setup validates cfg and returns the model's ids (the provider id is
// cfg.Provider, else defaultProvider) and its client options.
func Setup(modelID string, cfg Config, defaultProvider string) (Base, []option.RequestOption, error) {
	if modelID == "" {
		return Base{}, nil, errors.New("openai: empty model id")
	}
	base := cfg.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return Base{}, nil, fmt.Errorf("openai: invalid base URL %q", base)
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = defaultHTTPClient()
	}
	opts := []option.RequestOption{
		option.WithBaseURL(strings.TrimRight(base, "/") + "/"),
		// Always set (even empty), so that the key is the configured one
		// only: the SDK's OPENAI_API_KEY default (which its root client
		// applies) never reaches another provider's endpoint.
		option.WithAPIKey(cfg.APIKey),
		option.WithHTTPClient(hc),
	}
	if u.Hostname() == "api.openai.com" {
		// The organization and project the SDK's root client reads from
		// the environment, sent to OpenAI only (the services used here
		// read no environment themselves).
		if v, ok := os.LookupEnv("OPENAI_ORG_ID"); ok {
			opts = append(opts, option.WithOrganization(v))
		}
		if v, ok := os.LookupEnv("OPENAI_PROJECT_ID"); ok {
			opts = append(opts, option.WithProject(v))
		}
	} else {
		// Never to another host, whatever the SDK's defaults hold from
		// OPENAI_ORG_ID / OPENAI_PROJECT_ID.
		opts = append(opts, option.WithHeaderDel("OpenAI-Organization"), option.WithHeaderDel("OpenAI-Project"))
	}
	if cfg.MaxRetries != nil {
		opts = append(opts, option.WithMaxRetries(max(*cfg.MaxRetries, 0)))
	}
	for k, v := range cfg.Headers {
		opts = append(opts, option.WithHeader(k, v))
	}
	provider := cfg.Provider
	if provider == "" {
		provider = defaultProvider
	}
	return Base{modelID: modelID, provider: provider}, opts, nil
}

// defaultResponseHeaderTimeout bounds the wait for a response's headers
// (not its body, so long streams are unaffected), as the SDK's own default
// client does.
const defaultResponseHeaderTimeout = 10 * time.Minute

// defaultHTTPClient is the client of models configured without one, shared
// by all of them: http.DefaultTransport with a response header timeout
// (unless the transport was replaced, e.g. wrapped for tracing, which is
// then kept as it is).
var defaultHTTPClient = sync.OnceValue(func() *http.Client {
	if t, ok := http.DefaultTransport.(*http.Transport); ok {
		t = t.Clone()
		t.ResponseHeaderTimeout = defaultResponseHeaderTimeout
		return &http.Client{Transport: t}
	}
	return &http.Client{Transport: http.DefaultTransport}
})

// ModelID returns the model id.
func (b Base) ModelID() string { return b.modelID }

// Provider returns the provider id, e.g. "openai.responses".
func (b Base) Provider() string { return b.provider }

// MetadataKey is the ProviderMetadata key of the parts the model reports:
// the provider id's part before the first ".".
func (b Base) MetadataKey() string {
	name, _, _ := strings.Cut(b.provider, ".")
	if name == "" {
		return "openai"
	}
	return name
}

// ProviderOptions merges the options under the keys the model reads, in
// increasing precedence: "openai", then the provider id's part before the
// first "." (e.g. "xai" for "xai.chat").
func (b Base) ProviderOptions(po model.ProviderOptions) map[string]any {
	keys := []string{"openai"}
	if name, _, _ := strings.Cut(b.provider, "."); name != "" && name != "openai" {
		keys = append(keys, name)
	}
	out := map[string]any{}
	for _, k := range keys {
		for kk, v := range po[k] {
			out[kk] = v
		}
	}
	return out
}

// RequestOptions are the per-call options of req: headers and retries,
// then extra (the call's own, e.g. where the response goes).
func RequestOptions(req *model.Request, extra ...option.RequestOption) []option.RequestOption {
	if len(req.Headers) == 0 && req.Settings.MaxRetries == nil {
		return extra
	}
	opts := make([]option.RequestOption, 0, len(req.Headers)+1+len(extra))
	for k, v := range req.Headers {
		opts = append(opts, option.WithHeader(k, v))
	}
	if req.Settings.MaxRetries != nil {
		opts = append(opts, option.WithMaxRetries(max(*req.Settings.MaxRetries, 0)))
	}
	return append(opts, extra...)
}

// Yield is the yield function of a model's stream.
type Yield = func(model.StreamPart, error) bool

// ErrorField is embedded in a stream's event type: an event with a
// top-level "error" member is the stream's error, as the SDK's
// ssestream.Stream reads it.
type ErrorField struct {
	Error json.RawMessage `json:"error"`
}

// StreamErrorJSON returns the event's "error" member, nil without one.
func (f *ErrorField) StreamErrorJSON() json.RawMessage { return f.Error }

// Event is a pointer to an event type T (which embeds ErrorField).
type Event[T any] interface {
	*T
	StreamErrorJSON() json.RawMessage
}

// Run drives one streaming call whose HTTP exchange the SDK made (res and
// err are what it returned): it reads res's server-sent events with the
// SDK's decoder, decodes each event's JSON into a T (reused from event to
// event: event must not keep it), yields stream-start with warnings, then
// hands every event to event (false stops the stream), and reports
// whether the stream ended normally, the caller then yielding its finish
// part. An HTTP error, or a failure before the first event, is yielded as
// an error (an *Error for an HTTP error) and nothing else; a stream that
// broke afterwards becomes an error part; a cancelled context is yielded
// as the error.
//
// Events are read as the SDK's ssestream.Stream reads them (a "[DONE]"
// event ends the stream, an event with a top-level "error" member is an
// *ssestream.StreamError), but decoded with encoding/json into the
// caller's own small types instead of the SDK's: a member of an
// unexpected JSON type is left zero, as the SDK leaves it invalid.
func Run[T any, P Event[T]](ctx context.Context, res *http.Response, err error, warnings []model.Warning, yield Yield, event func(*T) bool) bool {
	if err != nil {
		if res != nil && res.Body != nil {
			_ = res.Body.Close()
		}
		yield(model.StreamPart{}, WrapError(ctx, err))
		return false
	}
	dec := ssestream.NewDecoder(res)
	if dec == nil {
		yield(model.StreamPart{}, errors.New("openai: no response body"))
		return false
	}
	defer dec.Close()
	v := P(new(T))
	more, err := next(dec, v)
	if !more && err != nil && !isStreamError(err) {
		yield(model.StreamPart{}, WrapError(ctx, err))
		return false
	}
	if !yield(model.StreamPart{Type: model.PartStreamStart, Warnings: warnings}, nil) {
		return false
	}
	for more {
		if !event(v) {
			return false
		}
		more, err = next(dec, v)
	}
	switch {
	case err != nil && ctx.Err() == nil:
		yield(model.StreamPart{Type: model.PartError, Err: WrapError(ctx, err)}, nil)
		return false
	case ctx.Err() != nil:
		yield(model.StreamPart{}, ctx.Err())
		return false
	}
	return true
}

// next decodes the next event into v; false is the end of the stream, an
// error its failure.
func next[T any, P Event[T]](dec ssestream.Decoder, v P) (bool, error) {
	if !dec.Next() {
		return false, dec.Err()
	}
	ev := dec.Event()
	if bytes.HasPrefix(ev.Data, []byte("[DONE]")) {
		return false, nil
	}
	var zero T
	*v = zero
	if err := json.Unmarshal(ev.Data, v); err != nil {
		if te := (*json.UnmarshalTypeError)(nil); !errors.As(err, &te) {
			return false, err
		}
	}
	if e := v.StreamErrorJSON(); e != nil {
		return false, &ssestream.StreamError{Message: "received error while streaming: " + jsonString(e), Event: ev}
	}
	return true, nil
}

// jsonString renders a JSON value as the SDK's stream error message does:
// a string as its text, null as nothing, anything else as its JSON.
func jsonString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

func isStreamError(err error) bool {
	var se *ssestream.StreamError
	return errors.As(err, &se)
}

// Error is an HTTP error response of the API (package openai's Error).
type Error struct {
	// StatusCode is the HTTP status.
	StatusCode int
	// Message, Type, Code and Param are the API's error object's fields.
	Message, Type, Code, Param string
	// API is the SDK's error (with the request and response).
	API *responses.Error
}

func (e *Error) Error() string {
	s := fmt.Sprintf("openai: HTTP %d", e.StatusCode)
	if t := http.StatusText(e.StatusCode); t != "" {
		s += " " + t
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Unwrap returns the SDK's error.
func (e *Error) Unwrap() error { return e.API }

// Transient reports whether the same call may succeed later
// (model.TransientError): a rate limit, timeout or server error status.
func (e *Error) Transient() bool { return model.TransientStatus(e.StatusCode) }

// WrapError turns the SDK's API error into an *Error and prefixes any
// other error with "openai: "; the context's own error is returned as it
// is.
func WrapError(ctx context.Context, err error) error {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return err
	}
	var apiErr *responses.Error
	if errors.As(err, &apiErr) {
		return &Error{
			StatusCode: apiErr.StatusCode, Message: apiErr.Message, Type: apiErr.Type,
			Code: apiErr.Code, Param: apiErr.Param, API: apiErr,
		}
	}
	return fmt.Errorf("openai: %w", err)
}
