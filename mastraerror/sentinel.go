package mastraerror

// sentinel is an error value for errors.Is that stands for a set of ids.
type sentinel struct {
	text string
	ids  []string
}

func (s *sentinel) Error() string { return s.text }

// Sentinel returns a new error with text for errors.Is: an *Error matches
// it when its ID is one of ids (mastra.ErrToolNotFound, for instance,
// names the two not-found ids of tool lookups). Each call returns a
// distinct value.
func Sentinel(text string, ids ...string) error {
	return &sentinel{text: text, ids: append([]string(nil), ids...)}
}

// statusError is an error that carries an HTTP status.
type statusError struct {
	text   string
	status int
}

func (e *statusError) Error() string { return e.text }

// HTTPStatus returns the status the error stands for.
func (e *statusError) HTTPStatus() int { return e.status }

// NewStatusError returns a new error with text that carries status (a
// [StatusCoder]): a sentinel such as storage.ErrConflict, whose errors a
// server answers with status wherever they are wrapped. Each call returns
// a distinct value, to compare with errors.Is.
func NewStatusError(text string, status int) error {
	return &statusError{text: text, status: status}
}
