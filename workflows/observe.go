package workflows

import (
	"context"
	"iter"

	"github.com/gomastra/mastra/stream"
)

// ObserveStream reads the run's chunks back from its event log
// (Config.Events), from the offset-th one (0: from the start), then
// follows the run live (Mastra's run.observeStream): the chunks are
// those Stream and ResumeStream yield, each run of them in order, in
// this process or, over a shared storage.RunEvents, in another. It ends
// after the run's last chunk (its workflow-finish), at a suspension
// (a suspended workflow-finish with nothing after it in the log, or a
// suspended run with nothing in its log from offset on), when the log
// has ended before offset, and for an ended run whose log has been
// removed; a run that has not started yet is waited for. A negative
// offset is an error. Observing does not change the run; stopping the
// iteration detaches the observer only.
func (r *Run) ObserveStream(ctx context.Context, offset int64) iter.Seq2[stream.Chunk, error] {
	return func(yield func(stream.Chunk, error) bool) {}
}
