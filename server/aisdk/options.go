package aisdk

import "github.com/gomastra/mastra/stream"

// Version is the AI SDK major version whose UI message stream a
// conversion writes.
type Version string

// Versions. They differ in approvals and finish reasons: V6 adds a
// native tool-approval-request part before Mastra's
// data-tool-call-approval part (and reads the client's answer back from
// the tool part's approval), and maps the finish reasons the AI SDK v6
// does not know (Mastra's "suspended", "tripwire", "unknown") to "other";
// V5 maps only "tripwire" and "retry" to "other". V7 streams are V6
// streams (as in Mastra, whose v7 chunks are the v6 ones).
const (
	V5 Version = "v5"
	V6 Version = "v6"
	V7 Version = "v7"
)

// StreamOptions configure a conversion of Mastra chunks into a UI message
// stream: the options of Mastra's toAISdkStream(stream, {from: 'agent'}).
// The zero value is Mastra's default.
type StreamOptions struct {
	// Version is V5 (the default, as in Mastra), V6 or V7.
	Version Version
	// LastMessageID, when set, is the start part's messageId (the
	// client's last assistant message, which the response continues)
	// instead of the run's own.
	LastMessageID string
	// OmitStart and OmitFinish leave out the start and finish parts
	// (Mastra's sendStart: false, sendFinish: false), for a stream that
	// is merged into another one.
	OmitStart, OmitFinish bool
	// SendReasoning includes reasoning parts; SendSources source parts.
	SendReasoning, SendSources bool
	// IncludeSubAgentMetadata turns the chunks of agent-<key> sub-agent
	// runs into data-tool-agent snapshot parts (and a
	// data-tool-agent-step part per finished step). Without it they are
	// left out, as Mastra's chatRoute leaves them out.
	IncludeSubAgentMetadata bool
	// OnError renders the errors of error and tool-output-error parts
	// (default SafeErrorText).
	OnError func(err any) string
	// MessageMetadata, when set, is called with the start and finish
	// chunks; a non-nil result is sent as the part's messageMetadata.
	MessageMetadata func(c stream.Chunk) any
}

func (o *StreamOptions) errorText(v any) string {
	if o.OnError != nil {
		return o.OnError(v)
	}
	return SafeErrorText(v)
}

func (o *StreamOptions) v6() bool { return o.Version == V6 || o.Version == V7 }
