package mastraerror

import (
	"errors"
	"slices"
)

// Error is Mastra's MastraError: an error with an ID, a Domain, a
// Category, a Message, structured Details and the Cause it wraps.
//
// encoding/json writes an *Error in the form gomastra's agents write in
// error chunks and in FullOutput.error: {"message"} followed by "domain",
// "category", "code" (the ID) and "details" when they are set; the cause
// is never written. [Error.MarshalMastra] writes Mastra's toJSON() form
// instead, for the places that serialise a MastraError that way.
type Error struct {
	// Message is the error's text, Mastra's message byte for byte.
	Message string `json:"message"`
	// Domain is the area the error comes from; empty for an error that
	// stands for a plain JavaScript Error (see [Error.Name]).
	Domain Domain `json:"domain,omitempty"`
	// Category says who is at fault.
	Category Category `json:"category,omitempty"`
	// ID is Mastra's error id (MastraError.id, written as "code"), one of
	// this package's ID constants; empty for an error that has none (a
	// failed model call, say).
	ID string `json:"code,omitempty"`
	// Details are Mastra's error details. A "status" entry (a number from
	// 400 to 599) is the HTTP status a server answers with (see
	// [HTTPStatus]).
	Details map[string]any `json:"details,omitempty"`
	// Cause is the underlying error, if any (Unwrap).
	Cause error `json:"-"`
}

// Error returns e.Message.
func (e *Error) Error() string { return e.Message }

// Unwrap returns e.Cause.
func (e *Error) Unwrap() error { return e.Cause }

// Is reports whether e matches target: an *Error with the same non-empty
// ID, or a [Sentinel] that names e.ID.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case *sentinel:
		return e.ID != "" && slices.Contains(t.ids, e.ID)
	case *Error:
		return t.ID != "" && t.ID == e.ID
	}
	return false
}

// Name is the name JavaScript gives e (String(e) is "<Name>: <Message>"):
// "MastraError" when e has a Domain — it stands for one of Mastra's
// MastraErrors — and "Error" when it has none.
func (e *Error) Name() string {
	if e.Domain != "" {
		return "MastraError"
	}
	return "Error"
}

// IDOf is the ID of the first *Error in err's chain (errors.As), or ""
// when there is none.
func IDOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.ID
	}
	return ""
}

// Message is the text an answer to err carries: the Message of the first
// *Error in err's chain, else err.Error(). err must not be nil.
func Message(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
}
