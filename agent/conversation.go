package agent

import (
	"unsafe"

	"github.com/gomastra/mastra/model"
)

// conversation is the run's messages, its input then its response, as
// the step-finish and finish payloads list them (Messages.All): one
// slice that grows with the run, whose backing array every payload
// shares up to its own length, instead of each payload copying the
// whole conversation (a run's event log keeps every payload: copies
// would cost memory and garbage-collection work in the square of the
// steps).
type conversation struct {
	all []model.Message
}

// of returns user followed by response. It only appends to what earlier
// calls returned, never writes over it: when a message it holds is no
// longer the one at its place (the run replaced it), it starts a new
// slice.
func (c *conversation) of(user, response []model.Message) []model.Message {
	n := len(user) + len(response)
	if !c.isPrefix(user, response) {
		c.all = make([]model.Message, 0, n)
	}
	for i := len(c.all); i < n; i++ {
		c.all = append(c.all, *messageAt(user, response, i))
	}
	return c.all[:n:n]
}

// isPrefix reports whether c.all holds the first messages of user
// followed by response, each the same value (same role, same content
// and options, not copies of them).
func (c *conversation) isPrefix(user, response []model.Message) bool {
	if len(c.all) > len(user)+len(response) {
		return false
	}
	for i := range c.all {
		if !sameMessage(&c.all[i], messageAt(user, response, i)) {
			return false
		}
	}
	return true
}

func messageAt(user, response []model.Message, i int) *model.Message {
	if i < len(user) {
		return &user[i]
	}
	return &response[i-len(user)]
}

// sameMessage reports whether a and b are one message value: the same
// role string, content slice and options map (not equal copies).
func sameMessage(a, b *model.Message) bool {
	return len(a.Content) == len(b.Content) && unsafe.SliceData(a.Content) == unsafe.SliceData(b.Content) &&
		len(a.Role) == len(b.Role) && unsafe.StringData(string(a.Role)) == unsafe.StringData(string(b.Role)) &&
		mapPointer(a.ProviderOptions) == mapPointer(b.ProviderOptions)
}

// mapPointer is the identity of map m (a map value is a pointer).
func mapPointer(m model.ProviderOptions) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&m))
}
