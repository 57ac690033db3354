package google

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"iter"
	"strconv"
	"strings"
	"time"

	"google.golang.org/genai"

	"github.com/gomastra/mastra/model"
)

// Stream runs one model call. A request the API refuses ends the stream
// with an *APIError before any part; an error after the response began
// ends it with an error part.
func (m *Model) Stream(ctx context.Context, req *model.Request) iter.Seq2[model.StreamPart, error] {
	return func(yield func(model.StreamPart, error) bool) {
		if req == nil {
			req = &model.Request{}
		}
		contents, cfg, warnings, err := buildRequest(req)
		if err != nil {
			yield(model.StreamPart{}, err)
			return
		}
		s := &streamState{modelID: m.modelID, warnings: warnings, yield: yield}
		for chunk, err := range m.client.Models.GenerateContentStream(ctx, m.modelID, contents, cfg) {
			if err != nil {
				if !s.started {
					if ctx.Err() != nil {
						yield(model.StreamPart{}, ctx.Err())
						return
					}
					yield(model.StreamPart{}, apiError(err))
					return
				}
				s.emit(model.StreamPart{Type: model.PartError, Err: apiError(err)})
				return
			}
			if !s.chunk(chunk) {
				return
			}
		}
		if ctx.Err() != nil {
			yield(model.StreamPart{}, ctx.Err())
			return
		}
		if !s.start(nil) {
			return
		}
		s.finish()
	}
}

// streamState maps the response chunks to parts, as the AI SDK's Google
// provider's doStream does.
type streamState struct {
	modelID  string
	warnings []model.Warning
	yield    func(model.StreamPart, error) bool
	stopped  bool

	started bool
	blocks  int // block ids handed out
	// The open text or reasoning block, if any.
	openID   string
	openType model.PartType // PartTextStart or PartReasoningStart

	calls        int // tool calls made
	finishReason genai.FinishReason
	usage        *genai.GenerateContentResponseUsageMetadata
	feedback     *genai.GenerateContentResponsePromptFeedback
	// cited are the grounding sources reported so far (Google Search
	// repeats them in later chunks).
	cited map[string]bool
}

func (s *streamState) emit(p model.StreamPart) bool {
	if s.stopped {
		return false
	}
	if !s.yield(p, nil) {
		s.stopped = true
		return false
	}
	return true
}

// start emits stream-start and, when chunk is not nil, response-metadata,
// once.
func (s *streamState) start(chunk *genai.GenerateContentResponse) bool {
	if s.started {
		return !s.stopped
	}
	s.started = true
	if !s.emit(model.StreamPart{Type: model.PartStreamStart, Warnings: s.warnings}) {
		return false
	}
	if chunk == nil {
		return true
	}
	md := &model.ResponseMetadata{ID: chunk.ResponseID, Timestamp: chunk.CreateTime, ModelID: chunk.ModelVersion}
	if md.ModelID == "" {
		md.ModelID = s.modelID
	}
	if md.Timestamp.IsZero() {
		// The Gemini API sends no creation time; as the AI SDK does for
		// such providers, use the time the response arrived.
		md.Timestamp = time.Now()
	}
	if r := chunk.SDKHTTPResponse; r != nil && len(r.Headers) > 0 {
		md.Headers = make(map[string]string, len(r.Headers))
		for k, v := range r.Headers {
			md.Headers[strings.ToLower(k)] = strings.Join(v, ", ")
		}
	}
	return s.emit(model.StreamPart{Type: model.PartResponseMetadata, Response: md})
}

func (s *streamState) chunk(c *genai.GenerateContentResponse) bool {
	if c == nil {
		return true
	}
	if !s.start(c) {
		return false
	}
	if c.UsageMetadata != nil {
		s.usage = c.UsageMetadata
	}
	if c.PromptFeedback != nil {
		s.feedback = c.PromptFeedback
	}
	if len(c.Candidates) == 0 || c.Candidates[0] == nil {
		return true
	}
	cand := c.Candidates[0]
	if cand.Content != nil {
		for _, p := range cand.Content.Parts {
			if p == nil {
				continue
			}
			switch {
			case p.FunctionCall != nil:
				if !s.closeBlock() || !s.toolCall(p) {
					return false
				}
			case p.Text != "":
				typ := model.PartTextStart
				if p.Thought {
					typ = model.PartReasoningStart
				}
				if !s.delta(typ, p.Text, signatureMetadata(p.ThoughtSignature)) {
					return false
				}
			case p.InlineData != nil:
				if !s.closeBlock() {
					return false
				}
				if !s.emit(model.StreamPart{Type: model.PartFile, File: &model.GeneratedFile{
					MediaType: p.InlineData.MIMEType, Data: base64.StdEncoding.EncodeToString(p.InlineData.Data),
				}}) {
					return false
				}
			}
		}
	}
	if gm := cand.GroundingMetadata; gm != nil {
		for _, gc := range gm.GroundingChunks {
			if gc == nil || gc.Web == nil || gc.Web.URI == "" || s.cited[gc.Web.URI] {
				continue
			}
			if s.cited == nil {
				s.cited = map[string]bool{}
			}
			s.cited[gc.Web.URI] = true
			if !s.emit(model.StreamPart{Type: model.PartSource, Source: &model.Source{SourceType: "url", ID: fmt.Sprintf("source-%d", len(s.cited)), URL: gc.Web.URI, Title: gc.Web.Title}}) {
				return false
			}
		}
	}
	if cand.FinishReason != "" {
		s.finishReason = cand.FinishReason
	}
	return true
}

// delta appends text to the open block of typ, opening one (and closing
// the other kind) as needed.
func (s *streamState) delta(typ model.PartType, text string, md model.ProviderMetadata) bool {
	if s.openID != "" && s.openType != typ {
		if !s.closeBlock() {
			return false
		}
	}
	deltaType := model.PartTextDelta
	if typ == model.PartReasoningStart {
		deltaType = model.PartReasoningDelta
	}
	if s.openID == "" {
		s.openID, s.openType = strconv.Itoa(s.blocks), typ
		s.blocks++
		if !s.emit(model.StreamPart{Type: typ, ID: s.openID, ProviderMetadata: md}) {
			return false
		}
	}
	return s.emit(model.StreamPart{Type: deltaType, ID: s.openID, Delta: text, ProviderMetadata: md})
}

func (s *streamState) closeBlock() bool {
	if s.openID == "" {
		return true
	}
	end := model.PartTextEnd
	if s.openType == model.PartReasoningStart {
		end = model.PartReasoningEnd
	}
	id := s.openID
	s.openID, s.openType = "", ""
	return s.emit(model.StreamPart{Type: end, ID: id})
}

func (s *streamState) toolCall(p *genai.Part) bool {
	fc := p.FunctionCall
	s.calls++
	id := fc.ID
	if id == "" {
		id = "call-" + strconv.Itoa(s.calls)
	}
	args := "{}"
	if len(fc.Args) > 0 {
		b, err := json.Marshal(fc.Args)
		if err != nil {
			return s.emit(model.StreamPart{Type: model.PartError, Err: fmt.Errorf("google: function call %s: %w", fc.Name, err)})
		}
		args = string(b)
	}
	md := signatureMetadata(p.ThoughtSignature)
	return s.emit(model.StreamPart{Type: model.PartToolInputStart, ID: id, ToolName: fc.Name, ProviderMetadata: md}) &&
		s.emit(model.StreamPart{Type: model.PartToolInputDelta, ID: id, Delta: args}) &&
		s.emit(model.StreamPart{Type: model.PartToolInputEnd, ID: id}) &&
		s.emit(model.StreamPart{Type: model.PartToolCall, ToolCallID: id, ToolName: fc.Name, Input: args, ProviderMetadata: md})
}

func (s *streamState) finish() {
	if !s.closeBlock() {
		return
	}
	p := model.StreamPart{
		Type:            model.PartFinish,
		FinishReason:    mapFinishReason(s.finishReason, s.calls > 0),
		RawFinishReason: string(s.finishReason),
	}
	md := map[string]any{}
	if u := s.usage; u != nil {
		p.Usage = model.Usage{
			InputTokens:       int(u.PromptTokenCount),
			OutputTokens:      int(u.CandidatesTokenCount),
			TotalTokens:       int(u.TotalTokenCount),
			ReasoningTokens:   int(u.ThoughtsTokenCount),
			CachedInputTokens: int(u.CachedContentTokenCount),
		}
		md["usageMetadata"] = u
	}
	if s.feedback != nil {
		md["promptFeedback"] = s.feedback
		if s.finishReason == "" && s.feedback.BlockReason != "" {
			p.FinishReason = model.FinishContentFilter
			p.RawFinishReason = string(s.feedback.BlockReason)
		}
	}
	if len(md) > 0 {
		p.ProviderMetadata = model.ProviderMetadata{ProviderName: md}
	}
	s.emit(p)
}

// mapFinishReason maps Gemini's finish reason as the AI SDK does, with
// every reason it does not name mapped to "other".
func mapFinishReason(r genai.FinishReason, toolCalls bool) model.FinishReason {
	switch r {
	case genai.FinishReasonStop:
		if toolCalls {
			return model.FinishToolCalls
		}
		return model.FinishStop
	case genai.FinishReasonMaxTokens:
		return model.FinishLength
	case genai.FinishReasonSafety, genai.FinishReasonRecitation, genai.FinishReasonBlocklist,
		genai.FinishReasonProhibitedContent, genai.FinishReasonSPII, genai.FinishReasonImageSafety:
		return model.FinishContentFilter
	default:
		return model.FinishOther
	}
}

func signatureMetadata(sig []byte) model.ProviderMetadata {
	if len(sig) == 0 {
		return nil
	}
	return model.ProviderMetadata{ProviderName: {"thoughtSignature": base64.StdEncoding.EncodeToString(sig)}}
}
