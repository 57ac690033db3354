package mastraerror

import "encoding/json"

// mastraJSON is MastraError.toJSON()'s object, in its key order.
type mastraJSON struct {
	Message  string         `json:"message"`
	Domain   Domain         `json:"domain"`
	Category Category       `json:"category"`
	Code     string         `json:"code"`
	Details  map[string]any `json:"details"`
	Cause    any            `json:"cause,omitempty"`
}

// plainJSON is a plain JavaScript Error as a MastraError's toJSON()
// writes its cause.
type plainJSON struct {
	Message string `json:"message"`
	Name    string `json:"name"`
}

// MarshalMastra encodes e as Mastra's MastraError.toJSON() does, with
// encoding/json's escaping: {"message","domain","category","code",
// "details"} and, when e has a Cause, "cause" — the cause's own toJSON()
// when it is an *Error with a Domain (a MastraError), else
// {"message","name":"Error"}. Every key is written even when empty;
// Details is {} when nil, its keys in sorted order (Mastra keeps
// insertion order; the registry's details read the same either way).
func (e *Error) MarshalMastra() ([]byte, error) {
	return json.Marshal(e.mastraJSON())
}

func (e *Error) mastraJSON() mastraJSON {
	details := e.Details
	if details == nil {
		details = map[string]any{}
	}
	v := mastraJSON{Message: e.Message, Domain: e.Domain, Category: e.Category, Code: e.ID, Details: details}
	if e.Cause == nil {
		return v
	}
	if ce, ok := e.Cause.(*Error); ok && ce.Domain != "" {
		v.Cause = ce.mastraJSON()
	} else {
		v.Cause = plainJSON{Message: e.Cause.Error(), Name: "Error"}
	}
	return v
}
