package wire

import (
	"github.com/gomastra/mastra/mastraerror"
	"github.com/gomastra/mastra/storage"
)

// ErrorMessage is what a client is told of err, answered with status:
// mastraerror.Message(err) (an *Error's Message, or the error's text, as
// Mastra's handleError answers), except that a database's error
// (storage.IsDatabaseError) answered with a 5xx is "Internal Server
// Error": its text is for the log only.
func ErrorMessage(status int, err error) string {
	if status >= 500 && storage.IsDatabaseError(err) {
		return "Internal Server Error"
	}
	return mastraerror.Message(err)
}
