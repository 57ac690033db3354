package agent

import (
	"context"
	"slices"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/storage"
)

// maxTurnRead bounds what a search reads around a message: at most this
// many stored messages on each side of it (or the context's turns plus
// one, when more). A turn cut by the bound is taken as read: when a
// turn has more than maxTurnRead steps before the message, the hit (or
// the context message) is its first step read.
const maxTurnRead = 256

// turnWindow reads the stored messages of the thread around message id
// and folds them into turns (FoldTurns), enough for span.Before whole
// turns before id's turn and span.After after it, where the thread has
// them: it reads span+1 messages each side, and twice as many on a side
// whose turns the read may have cut, up to maxTurnRead (one
// ListMessagesAround a read). It returns the turns with the index of
// id's; none and -1 when id is not a message of the thread. The turns
// at the window's ends may be cut when the thread goes on past them.
func (a *Agent) turnWindow(ctx context.Context, threadID, id string, span MessageRange) ([][]storage.Message, int, error) {
	read := MessageRange{Before: span.Before + 1, After: span.After + 1}
	for {
		window, at, err := a.messageWindow(ctx, threadID, id, read)
		if err != nil || at < 0 {
			return nil, -1, err
		}
		turns := FoldTurns(window)
		ti := slices.IndexFunc(turns, func(t []storage.Message) bool {
			return slices.ContainsFunc(t, func(m storage.Message) bool { return m.ID == id })
		})
		next := read
		if at == read.Before && ti-1 < span.Before { // (the first turn may be cut)
			next.Before = min(2*read.Before, max(maxTurnRead, read.Before))
		}
		if len(window)-1-at == read.After && len(turns)-2-ti < span.After { // (so may the last)
			next.After = min(2*read.After, max(maxTurnRead, read.After))
		}
		if next == read {
			return turns, ti, nil
		}
		read = next
	}
}

// FoldTurns splits a thread's stored messages, in order, into the
// messages of Mastra's stored form: each user (or system) message alone,
// and each run of assistant and tool messages (the steps of one turn,
// which the agent stores one by one) as one. The memory API answers a
// thread's messages folded so, and memory search lists them so.
func FoldTurns(msgs []storage.Message) [][]storage.Message {
	var turns [][]storage.Message
	for i := 0; i < len(msgs); {
		j := i + 1
		if isStep(msgs[i]) {
			for j < len(msgs) && isStep(msgs[j]) {
				j++
			}
		}
		turns = append(turns, msgs[i:j])
		i = j
	}
	return turns
}

// isStep reports whether m is a step of a turn: an assistant or tool
// message.
func isStep(m storage.Message) bool {
	return m.Role == string(model.RoleAssistant) || m.Role == string(model.RoleTool)
}
