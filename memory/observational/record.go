package observational

import (
	"encoding/json"
	"time"
)

// Origin types of a record (Record.OriginType): OriginInitial for the
// first generation of a thread's (or resource's) observations,
// OriginReflection for one a reflection started. Mastra's record schema
// also admits OriginObservation, which this package does not write.
const (
	OriginInitial     = "initial"
	OriginObservation = "observation"
	OriginReflection  = "reflection"
)

// Record is one generation of a thread's (or resource's) observations,
// under the field names of Mastra's ObservationalMemoryRecord, as
// Mastra's GET /memory/observational-memory returns it. The processor
// keeps the current generation and, since each reflection starts a new
// one, the previous ones (History).
type Record struct {
	ID    string `json:"id"`
	Scope Scope  `json:"scope"`
	// ThreadID is "" in resource scope, where the JSON form has null.
	ThreadID   string `json:"threadId"`
	ResourceID string `json:"resourceId"`
	// ActiveObservations are the observations the model is shown.
	ActiveObservations string `json:"activeObservations"`
	// BufferedObservations are the buffered chunks' observations joined
	// (Mastra's legacy field); BufferedObservationChunks the chunks,
	// made in the background and not yet activated.
	BufferedObservations      string          `json:"bufferedObservations,omitempty"`
	BufferedObservationChunks []BufferedChunk `json:"bufferedObservationChunks,omitempty"`
	// BufferedReflection is a reflection made in the background, waiting
	// to be activated at ObservationTokens; BufferedReflectionTokens is
	// its size, BufferedReflectionInputTokens the size of the
	// observations it condensed, the first
	// ReflectedObservationLineCount lines of ActiveObservations.
	BufferedReflection            string `json:"bufferedReflection,omitempty"`
	BufferedReflectionTokens      int    `json:"bufferedReflectionTokens,omitempty"`
	BufferedReflectionInputTokens int    `json:"bufferedReflectionInputTokens,omitempty"`
	ReflectedObservationLineCount int    `json:"reflectedObservationLineCount,omitempty"`
	// OriginType is OriginInitial or OriginReflection; GenerationCount
	// counts the reflections before this generation.
	OriginType      string `json:"originType"`
	GenerationCount int    `json:"generationCount"`
	// LastObservedAt is the time of the newest message observed.
	LastObservedAt *time.Time `json:"lastObservedAt,omitempty"`
	// TotalTokensObserved is the size of every message observed;
	// ObservationTokenCount the size of ActiveObservations;
	// PendingMessageTokens the size of the unobserved messages when the
	// record was last saved.
	TotalTokensObserved   int `json:"totalTokensObserved"`
	ObservationTokenCount int `json:"observationTokenCount"`
	PendingMessageTokens  int `json:"pendingMessageTokens"`
	// IsObserving and IsReflecting are true while a synchronous
	// observation or reflection of the record runs;
	// IsBufferingObservation and IsBufferingReflection while a buffered
	// observation or reflection runs in the background. They are set on the records Load returns,
	// from this process's work.
	IsObserving            bool `json:"isObserving"`
	IsReflecting           bool `json:"isReflecting"`
	IsBufferingObservation bool `json:"isBufferingObservation"`
	IsBufferingReflection  bool `json:"isBufferingReflection"`
	// LastBufferedAtTokens is the size of the unobserved messages when
	// the last buffered observation started.
	LastBufferedAtTokens int `json:"lastBufferedAtTokens"`
	// Config is the processor's configuration when the record was made,
	// as Mastra's: {"observation": {model, messageTokens, bufferTokens,
	// …}, "reflection": {model, observationTokens, …}, "scope"}.
	Config map[string]any `json:"config"`
	// Metadata is for the application (Mastra's metadata).
	Metadata map[string]any `json:"metadata,omitempty"`
	// ObservedMessageIDs are the stored messages the observations cover
	// (Mastra's observedMessageIds).
	ObservedMessageIDs []string `json:"observedMessageIds,omitempty"`
	// ObservedTimezone is the time zone of the dates the observer was
	// shown.
	ObservedTimezone string `json:"observedTimezone,omitempty"`
	// Threads holds each thread's current task and suggested response
	// (kept by Mastra in the thread's metadata).
	Threads   map[string]ThreadHints `json:"threads,omitempty"`
	CreatedAt time.Time              `json:"createdAt"`
	UpdatedAt time.Time              `json:"updatedAt"`
}

// BufferedChunk is one buffered observation (Mastra's
// BufferedObservationChunk): the observer's output for MessageIDs, made
// in the background and kept until it is activated.
type BufferedChunk struct {
	ID      string `json:"id"`
	CycleID string `json:"cycleId"`
	// Observations and TokenCount are the chunk's observations and
	// their size; MessageTokens is the size of the messages observed.
	Observations   string    `json:"observations"`
	TokenCount     int       `json:"tokenCount"`
	MessageIDs     []string  `json:"messageIds"`
	MessageTokens  int       `json:"messageTokens"`
	LastObservedAt time.Time `json:"lastObservedAt"`
	CreatedAt      time.Time `json:"createdAt"`
	// SuggestedContinuation and CurrentTask are the observer's hints.
	SuggestedContinuation string `json:"suggestedContinuation,omitempty"`
	CurrentTask           string `json:"currentTask,omitempty"`
}

// ThreadHints are the observer's continuation hints for a thread.
type ThreadHints struct {
	CurrentTask       string `json:"currentTask,omitempty"`
	SuggestedResponse string `json:"suggestedResponse,omitempty"`
}

// recordJSON is Record's JSON form with a nullable thread id.
type recordJSON struct {
	*recordAlias
	ThreadID *string `json:"threadId"`
}

type recordAlias Record

// MarshalJSON writes Record with threadId null when ThreadID is "".
func (r Record) MarshalJSON() ([]byte, error) {
	j := recordJSON{recordAlias: (*recordAlias)(&r)}
	if r.ThreadID != "" {
		j.ThreadID = &r.ThreadID
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads Record's JSON form: a null or missing threadId is
// "", and records of earlier versions of this package (no config, no
// originType) are read as they were.
func (r *Record) UnmarshalJSON(b []byte) error {
	var j recordJSON
	j.recordAlias = (*recordAlias)(r)
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	r.ThreadID = ""
	if j.ThreadID != nil {
		r.ThreadID = *j.ThreadID
	}
	if r.OriginType == "" {
		r.OriginType = OriginInitial
	}
	return nil
}
