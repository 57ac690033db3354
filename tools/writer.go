package tools

import (
	"errors"
	"strings"
)

// Writer streams data from a running tool to whoever consumes the run.
// Inside an agent run, Write becomes a `tool-output` chunk ({output,
// toolCallId, toolName}, from USER) and Custom a `data-*` chunk passed
// through verbatim, also from nested sub-agents. On a direct call, writes
// are discarded. Implementations must be safe for concurrent use.
type Writer interface {
	// Write emits data as the tool's streamed output.
	Write(data any) error
	// Custom emits a data chunk; its Type must start with "data-".
	Custom(chunk DataChunk) error
}

// DataChunk is a custom `data-*` stream chunk. Transient chunks are
// streamed but not persisted.
type DataChunk struct {
	Type      string `json:"type"`
	Data      any    `json:"data"`
	ID        string `json:"id,omitempty"`
	Transient bool   `json:"transient,omitempty"`
}

// ErrDataChunkType is returned by Custom for a chunk whose type does not
// start with "data-".
var ErrDataChunkType = errors.New(`tools: custom chunk type must start with "data-"`)

// CheckDataChunk reports whether c may be written with Custom.
func CheckDataChunk(c DataChunk) error {
	if !strings.HasPrefix(c.Type, "data-") || len(c.Type) == len("data-") {
		return ErrDataChunkType
	}
	return nil
}

// discardWriter is the writer of direct calls.
type discardWriter struct{}

func (discardWriter) Write(any) error          { return nil }
func (discardWriter) Custom(c DataChunk) error { return CheckDataChunk(c) }

// WriterFunc adapts two functions to a Writer (handy in tests and for
// callers building their own streams). Nil functions discard.
type WriterFunc struct {
	OnWrite  func(data any) error
	OnCustom func(chunk DataChunk) error
}

// Write implements Writer.
func (w WriterFunc) Write(data any) error {
	if w.OnWrite == nil {
		return nil
	}
	return w.OnWrite(data)
}

// Custom implements Writer.
func (w WriterFunc) Custom(c DataChunk) error {
	if err := CheckDataChunk(c); err != nil {
		return err
	}
	if w.OnCustom == nil {
		return nil
	}
	return w.OnCustom(c)
}
