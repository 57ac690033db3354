package bgtasks

import (
	"errors"

	"github.com/gomastra/mastra/storage"
)

// ErrConcurrencyLimit is the error (wrapped) of an Enqueue the Reject
// backpressure refused.
var ErrConcurrencyLimit error = mastraText("Concurrency limit reached")

// mastraText is an error whose text is Mastra's, word for word (a
// sentence, capitalized as Mastra writes it).
type mastraText string

func (e mastraText) Error() string { return string(e) }

// taskNotFound is the error of a call on an unknown task: Mastra's
// "Task not found: <id>", which is a storage.ErrNotFound.
func taskNotFound(id string) error { return notFound(id) }

type notFound string

func (e notFound) Error() string { return "Task not found: " + string(e) }
func (e notFound) Unwrap() error { return storage.ErrNotFound }

// ErrShuttingDown is the error of an Enqueue after Shutdown began.
var ErrShuttingDown = errors.New("BackgroundTaskManager is shutting down, cannot enqueue new tasks")
