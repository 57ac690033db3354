package model

import (
	"cmp"
	"context"
	"errors"
	"iter"
	"strings"
	"time"
)

// PartType names a stream part, as the AI SDK's LanguageModelV2StreamPart
// types are named.
type PartType string

// Stream part types.
const (
	PartStreamStart      PartType = "stream-start"
	PartResponseMetadata PartType = "response-metadata"
	PartTextStart        PartType = "text-start"
	PartTextDelta        PartType = "text-delta"
	PartTextEnd          PartType = "text-end"
	PartReasoningStart   PartType = "reasoning-start"
	PartReasoningDelta   PartType = "reasoning-delta"
	PartReasoningEnd     PartType = "reasoning-end"
	PartToolInputStart   PartType = "tool-input-start"
	PartToolInputDelta   PartType = "tool-input-delta"
	PartToolInputEnd     PartType = "tool-input-end"
	PartToolCall         PartType = "tool-call"
	PartToolResult       PartType = "tool-result"
	PartSource           PartType = "source"
	PartFile             PartType = "file"
	PartFinish           PartType = "finish"
	PartError            PartType = "error"
	PartRaw              PartType = "raw"
)

// StreamPart is one part of a model's streamed response. It is a flat
// struct (no interface per part, no allocation to switch on it); which
// fields are set depends on Type:
//
//   - stream-start: Warnings
//   - response-metadata: Response
//   - text-*/reasoning-*: ID, Delta (on the deltas)
//   - tool-input-start: ID (the tool-call id), ToolName, ProviderExecuted;
//     tool-input-delta: ID, Delta; tool-input-end: ID
//   - tool-call: ToolCallID, ToolName, Input (the arguments' JSON text),
//     ProviderExecuted
//   - tool-result (provider-executed tools): ToolCallID, ToolName, Result,
//     IsError
//   - source: Source; file: File
//   - finish: FinishReason, RawFinishReason, Usage
//   - error: Err
//   - raw: Raw
//
// ProviderMetadata may accompany any part.
type StreamPart struct {
	Type PartType

	ID    string
	Delta string

	ToolCallID       string
	ToolName         string
	Input            string
	ProviderExecuted bool
	Result           any
	IsError          bool

	FinishReason    FinishReason
	RawFinishReason string
	Usage           Usage

	Warnings []Warning
	Response *ResponseMetadata
	Source   *Source
	File     *GeneratedFile
	Err      error
	Raw      any

	ProviderMetadata ProviderMetadata
}

// FinishReason is why a model stopped.
type FinishReason string

// Finish reasons (the AI SDK's, plus Mastra's "suspended" and "tripwire"
// for runs).
const (
	FinishStop          FinishReason = "stop"
	FinishLength        FinishReason = "length"
	FinishContentFilter FinishReason = "content-filter"
	FinishToolCalls     FinishReason = "tool-calls"
	FinishError         FinishReason = "error"
	FinishOther         FinishReason = "other"
	FinishUnknown       FinishReason = "unknown"
	FinishSuspended     FinishReason = "suspended"
	FinishTripwire      FinishReason = "tripwire"
)

// Usage counts tokens. Zero means "not reported".
type Usage struct {
	InputTokens       int `json:"inputTokens"`
	OutputTokens      int `json:"outputTokens"`
	TotalTokens       int `json:"totalTokens"`
	ReasoningTokens   int `json:"reasoningTokens,omitempty"`
	CachedInputTokens int `json:"cachedInputTokens,omitempty"`
	// Raw is the provider's own usage record when it reports one; sums
	// keep the latest (as Mastra's running usage does).
	Raw any `json:"raw,omitempty"`
}

// Add returns the sum of two usages (Mastra's totalUsage).
func (u Usage) Add(o Usage) Usage {
	return Usage{
		InputTokens:       u.InputTokens + o.InputTokens,
		OutputTokens:      u.OutputTokens + o.OutputTokens,
		TotalTokens:       u.TotalTokens + o.TotalTokens,
		ReasoningTokens:   u.ReasoningTokens + o.ReasoningTokens,
		CachedInputTokens: u.CachedInputTokens + o.CachedInputTokens,
		Raw:               cmp.Or(o.Raw, u.Raw),
	}
}

// Warning is a provider's warning about the request (an unsupported
// setting, a tool it ignored).
type Warning struct {
	Type    string `json:"type"`
	Setting string `json:"setting,omitempty"`
	Details string `json:"details,omitempty"`
	Message string `json:"message,omitempty"`
}

// ResponseMetadata identifies the provider's response.
type ResponseMetadata struct {
	ID        string            `json:"id,omitempty"`
	Timestamp time.Time         `json:"timestamp"`
	ModelID   string            `json:"modelId,omitempty"`
	Headers   map[string]string `json:"headers,omitempty"`
}

// Source is a cited source (web search results, documents).
type Source struct {
	SourceType string `json:"sourceType"`
	ID         string `json:"id"`
	URL        string `json:"url,omitempty"`
	Title      string `json:"title,omitempty"`
	MediaType  string `json:"mediaType,omitempty"`
	Filename   string `json:"filename,omitempty"`
}

// GeneratedFile is a file the model produced (base64 data).
type GeneratedFile struct {
	MediaType string `json:"mediaType"`
	Data      string `json:"data"`
}

// Response is a whole model response: the stream collected.
type Response struct {
	Text             string
	Reasoning        string
	ToolCalls        []ToolCallPart
	ToolResults      []ToolResultPart
	Sources          []Source
	Files            []GeneratedFile
	FinishReason     FinishReason
	RawFinishReason  string
	Usage            Usage
	Warnings         []Warning
	Metadata         ResponseMetadata
	ProviderMetadata ProviderMetadata
}

// ErrNoFinish is returned by Collect when the stream ended without a
// finish part.
var ErrNoFinish = errors.New("model: the stream ended without a finish part")

// Collect drains a model call into a Response: Generate in AI SDK terms.
// An error part ends it with that part's error.
func Collect(ctx context.Context, m LanguageModel, req *Request) (*Response, error) {
	return CollectStream(m.Stream(ctx, req))
}

// CollectStream drains stream into a Response.
func CollectStream(stream iter.Seq2[StreamPart, error]) (*Response, error) {
	var (
		r         Response
		text      strings.Builder
		reasoning strings.Builder
		finished  bool
	)
	for p, err := range stream {
		if err != nil {
			return nil, err
		}
		switch p.Type {
		case PartStreamStart:
			r.Warnings = append(r.Warnings, p.Warnings...)
		case PartResponseMetadata:
			if p.Response != nil {
				r.Metadata = *p.Response
			}
		case PartTextDelta:
			text.WriteString(p.Delta)
		case PartReasoningDelta:
			reasoning.WriteString(p.Delta)
		case PartToolCall:
			r.ToolCalls = append(r.ToolCalls, ToolCallPart{
				ToolCallID: p.ToolCallID, ToolName: p.ToolName, Input: []byte(p.Input),
				ProviderExecuted: p.ProviderExecuted, ProviderOptions: ProviderOptions(p.ProviderMetadata),
			})
		case PartToolResult:
			r.ToolResults = append(r.ToolResults, ToolResultPart{
				ToolCallID: p.ToolCallID, ToolName: p.ToolName, Output: resultOutput(p.Result, p.IsError),
			})
		case PartSource:
			if p.Source != nil {
				r.Sources = append(r.Sources, *p.Source)
			}
		case PartFile:
			if p.File != nil {
				r.Files = append(r.Files, *p.File)
			}
		case PartFinish:
			r.FinishReason, r.RawFinishReason, r.Usage = p.FinishReason, p.RawFinishReason, p.Usage
			r.ProviderMetadata = p.ProviderMetadata
			finished = true
		case PartError:
			if p.Err != nil {
				return nil, p.Err
			}
			return nil, errors.New("model: error part without an error")
		}
	}
	if !finished {
		return nil, ErrNoFinish
	}
	r.Text, r.Reasoning = text.String(), reasoning.String()
	return &r, nil
}

func resultOutput(result any, isError bool) ToolResultOutput {
	if isError {
		if s, ok := result.(string); ok {
			return ErrorTextOutput(s)
		}
		return ErrorJSONOutput(result)
	}
	if s, ok := result.(string); ok {
		return TextOutput(s)
	}
	return JSONOutput(result)
}
