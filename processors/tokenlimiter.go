package processors

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"regexp"
	"strings"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/model"
)

// TokenLimiterID is TokenLimiter's processor id, Mastra's.
const TokenLimiterID = "token-limiter"

// Mastra's constants for counting a prompt.
const (
	// TokensPerMessage is added to every message's count.
	TokensPerMessage = 3.8
	// TokensPerConversation is added once to the prompt's.
	TokensPerConversation = 24
	// jsonDiscount is taken off a message's count for each tool input or
	// result counted as its JSON text (Mastra's "overhead -= 12").
	jsonDiscount = 12
	// tokensPerImage is the flat count of an image.
	tokensPerImage = 765
	// tokensPerMediaFallback is the count of a file whose size is not
	// known (a URL, a file id).
	tokensPerMediaFallback = 258
	// bytesPerToken is the ratio of other files' decoded size to tokens.
	bytesPerToken = 4
)

// TrimMode is how TokenLimiter chooses the messages that fit.
type TrimMode string

// Trim modes (Mastra's trimMode).
const (
	// TrimBestFit, the default, walks the conversation from its newest
	// message to its oldest and keeps each message (or tool call group)
	// that still fits, skipping those that do not: an older, shorter
	// message may be kept after a newer, longer one was dropped.
	TrimBestFit TrimMode = "best-fit"
	// TrimContiguous stops at the first message that does not fit: what is
	// kept is an unbroken run of the newest messages.
	TrimContiguous TrimMode = "contiguous"
)

// TokenLimiter is Mastra's TokenLimiter (TokenLimiterProcessor, `new
// TokenLimiter(limit)`) as a step processor: before each model call it
// drops the oldest messages of the prompt until the prompt fits Limit
// tokens, so that a long memory thread, or a long run, does not overflow
// the model's context window.
//
// It counts and trims what the model is about to receive, as Mastra's
// does (its processLLMRequest): every step's prompt, the run's own
// messages included. It
//
//   - never drops a system message (instructions, working memory, context
//     given as system messages), and counts them first;
//   - keeps or drops a tool call with its results: an assistant message
//     that makes tool calls and the tool messages right after it that
//     answer them are one unit, so the model is never sent a call without
//     its result or a result without its call;
//   - keeps the newest messages that fit, in order (TrimMode says whether a
//     message that does not fit ends the walk);
//   - does not change the run's history or memory: only this model call's
//     prompt.
//
// Counting is Mastra's: a message costs the tokens of its role followed by
// its text, reasoning, tool names and tool inputs and results (JSON values
// as JSON.stringify writes them), plus TokensPerMessage (3.8), minus 12
// for each input or result counted as JSON; images cost 765, other files
// a quarter of their decoded size (258 when it is not known); a system
// message costs its role and text plus 3.8, and the prompt
// TokensPerConversation (24) more. Counts are fractional, as Mastra's.
//
// When the prompt holds no message but system ones, when the system
// messages alone reach the limit, or when no message fits, the step fails
// with a *TripWire (Mastra trips the run instead; see TripWire).
//
// Mastra's options for limiting the model's output (strategy, countMode)
// and its "memory-only" trim mode (which deletes stored history) have no
// counterpart here.
type TokenLimiter struct {
	// Limit is the prompt's budget in tokens.
	Limit int
	// TrimMode is TrimBestFit when empty.
	TrimMode TrimMode
	// Counter counts a text's tokens; nil is Estimate, Mastra's count. Use
	// o200k.Counter (package processors/o200k) for OpenAI's o200k_base
	// tokenizer, exact.
	Counter Counter
}

// NewTokenLimiter returns a TokenLimiter of limit tokens, best fit,
// counting as Mastra does: Mastra's `new TokenLimiter(limit)`.
func NewTokenLimiter(limit int) *TokenLimiter { return &TokenLimiter{Limit: limit} }

// ID returns "token-limiter".
func (t *TokenLimiter) ID() string { return TokenLimiterID }

// ProcessStep trims s.Messages to the limit.
func (t *TokenLimiter) ProcessStep(_ context.Context, s *agent.StepInput) error {
	msgs := agent.SentMessages(s.Messages)
	gs := groups(msgs)
	isSystem := func(g [2]int) bool { return msgs[g[0]].Role == model.RoleSystem }
	count := 0
	for _, g := range gs {
		if !isSystem(g) {
			count += g[1] - g[0]
		}
	}
	if count == 0 {
		return &TripWire{ProcessorID: TokenLimiterID, Reason: "TokenLimiterProcessor: No messages to process. Cannot send LLM a request with no messages."}
	}
	limit := float64(t.Limit)
	systemTokens := 0.0
	for _, g := range gs {
		if isSystem(g) {
			for _, m := range msgs[g[0]:g[1]] {
				systemTokens += t.MessageTokens(m)
			}
		}
	}
	if systemTokens+TokensPerConversation >= limit {
		return &TripWire{ProcessorID: TokenLimiterID,
			Reason:   "TokenLimiterProcessor: System messages alone exceed token limit. Requests cannot be completed by removing system messages.",
			Metadata: map[string]any{"systemTokens": systemTokens, "limit": t.Limit}}
	}
	remaining := limit - systemTokens - TokensPerConversation
	kept := make([]bool, len(gs))
	current, keptAny := 0.0, false
	for i := len(gs) - 1; i >= 0; i-- {
		g := gs[i]
		if isSystem(g) {
			continue
		}
		tokens := 0.0
		for _, m := range msgs[g[0]:g[1]] {
			tokens += t.MessageTokens(m)
		}
		if current+tokens <= remaining {
			kept[i], keptAny = true, true
			current += tokens
		} else if t.TrimMode == TrimContiguous {
			break
		}
	}
	if !keptAny {
		return &TripWire{ProcessorID: TokenLimiterID,
			Reason:   "TokenLimiterProcessor: No messages fit within the remaining token budget. Cannot send LLM a request with no messages.",
			Metadata: map[string]any{"systemTokens": systemTokens, "limit": t.Limit, "remainingBudget": remaining, "messageCount": count}}
	}
	out := make([]model.Message, 0, len(msgs))
	for i, g := range gs {
		if kept[i] || isSystem(g) {
			out = append(out, msgs[g[0]:g[1]]...)
		}
	}
	s.Messages = out
	return nil
}

// PromptTokens is what TokenLimiter counts for a prompt of msgs:
// TokensPerConversation plus each message's MessageTokens (half tool
// pairs and empty tool messages, which the agent does not send, left
// out).
func (t *TokenLimiter) PromptTokens(msgs []model.Message) float64 {
	total := 0.0
	for _, m := range agent.SentMessages(msgs) {
		total += t.MessageTokens(m)
	}
	return total + TokensPerConversation
}

// MessageTokens is what TokenLimiter counts for one message (see
// TokenLimiter).
func (t *TokenLimiter) MessageTokens(m model.Message) float64 {
	c := t.Counter
	if c == nil {
		c = Estimate
	}
	if m.Role == model.RoleSystem {
		return float64(c.CountTokens(string(m.Role)+m.TextContent())) + TokensPerMessage
	}
	var b strings.Builder
	b.WriteString(string(m.Role))
	overhead, media := 0.0, 0
	for _, p := range m.Content {
		switch p.Type {
		case model.MessageText, model.MessageReasoning:
			b.WriteString(p.Text)
		case model.MessageToolCall:
			if p.ToolCall == nil {
				continue
			}
			b.WriteString(p.ToolCall.ToolName)
			text, isJSON := inputText(p.ToolCall.Input)
			b.WriteString(text)
			if isJSON {
				overhead -= jsonDiscount
			}
		case model.MessageToolResult:
			if p.ToolResult == nil {
				continue
			}
			o := p.ToolResult.Output
			switch o.Type {
			case model.OutputText, model.OutputErrorText:
				b.WriteString(valueText(o.Value))
			case model.OutputJSON, model.OutputErrorJSON:
				b.WriteString(stringify(o.Value))
				overhead -= jsonDiscount
			case model.OutputContent:
				for _, cp := range o.Parts() {
					if cp.Type == model.PartText {
						b.WriteString(cp.Text)
						continue
					}
					hasData := cp.Data != "" || cp.Type == model.PartImageData || cp.Type == model.PartFileData || cp.Type == model.PartMedia
					media += mediaTokens(cp.Data, hasData, cp.MediaType)
					b.WriteString(partWithoutData(cp))
				}
				overhead -= jsonDiscount
			case model.OutputExecutionDenied:
				// (Mastra 1.71 fails on this output, which has no value;
				// its reason is counted as text.)
				b.WriteString(o.Reason)
			}
		case model.MessageImage:
			media += tokensPerImage // (the AI SDK gives every image an image/ media type)
		case model.MessageFile:
			media += mediaTokens(p.Data, true, p.MediaType)
		}
	}
	overhead += TokensPerMessage
	return float64(c.CountTokens(b.String())) + overhead + float64(media)
}

// inputText is a tool call's input as Mastra counts it: a string input as
// it is, any other JSON value as JSON.stringify writes it (isJSON); input
// that is not JSON as its text. No input is {}.
func inputText(raw json.RawMessage) (text string, isJSON bool) {
	if len(raw) == 0 {
		return "{}", true
	}
	if t := bytes.TrimLeft(raw, " \t\r\n"); len(t) > 0 && t[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s, false
		}
	}
	out, ok := stringifyRaw(raw)
	if !ok {
		return string(raw), false
	}
	return out, true
}

// valueText is a text output's value.
func valueText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case nil:
		return ""
	case json.RawMessage:
		var s string
		if json.Unmarshal(t, &s) == nil {
			return s
		}
		return string(t)
	}
	return fmt.Sprint(v)
}

// partWithoutData is JSON.stringify of a content part without its data.
func partWithoutData(p model.ContentPart) string {
	raw, err := json.Marshal(p)
	if err != nil {
		return ""
	}
	v, err := jsjson.Decode(raw, orderedBuilder)
	if err != nil {
		return ""
	}
	if o, ok := v.(ordered); ok {
		var rest ordered
		for _, m := range o {
			if m.key != "data" {
				rest = append(rest, m)
			}
		}
		v = rest
	}
	return string(jsjson.Append(nil, v, ""))
}

// ordered is a JSON object with its members in order, for jsjson.Append.
type ordered []struct {
	key string
	val any
}

func (o ordered) Members() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		for _, m := range o {
			if !yield(m.key, m.val) {
				return
			}
		}
	}
}

var orderedBuilder = jsjson.Builder[any]{
	Scalar: func(v any) any { return v },
	Array:  func(elems []any) any { return elems },
	Object: func(keys []string, vals []any) any {
		byKey := make(map[string]any, len(keys))
		for i, k := range keys {
			byKey[k] = vals[i]
		}
		var o ordered
		for _, k := range jsjson.OrderKeys(keys) {
			o = append(o, struct {
				key string
				val any
			}{k, byKey[k]})
		}
		return o
	},
}

// urlScheme matches a text that starts with a URL scheme.
var urlScheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)

// mediaTokens is Mastra's estimate of a file or image: 765 for an image,
// else a quarter of the decoded size of base64 data (or of a data: URL),
// else (a URL, a file id, no data) 258.
func mediaTokens(data string, hasData bool, mediaType string) int {
	if strings.HasPrefix(mediaType, "image/") {
		return tokensPerImage
	}
	if !hasData {
		return tokensPerMediaFallback
	}
	content, isDataURI := data, strings.HasPrefix(data, "data:")
	if isDataURI {
		if i := strings.IndexByte(data, ','); i >= 0 {
			content = data[i+1:]
		}
	} else if urlScheme.MatchString(data) {
		return tokensPerMediaFallback
	}
	return max(1, len(content)*3/4/bytesPerToken)
}

// TripWire is Mastra's TripWire: a processor's refusal to send the step
// to the model, with Mastra's reason and metadata. It is an
// agent.TripwireError: the run ends, as Mastra's does, with a tripwire
// chunk and Output.Tripwire (finish reason "other"), not with an error.
type TripWire struct {
	ProcessorID string
	Reason      string
	// Retry is whether the step may be tried again (false for the token
	// limiter's).
	Retry    bool
	Metadata map[string]any
}

// Error returns the reason.
func (e *TripWire) Error() string { return e.Reason }

var _ agent.TripwireError = (*TripWire)(nil)

// Tripwire is e as the agent reports a tripwire.
func (e *TripWire) Tripwire() agent.Tripwire {
	return agent.Tripwire{Reason: e.Reason, Retry: e.Retry, Metadata: e.Metadata, ProcessorID: e.ProcessorID}
}
