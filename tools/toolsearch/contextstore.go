package toolsearch

import (
	"encoding/json"
	"sync"

	"github.com/gomastra/mastra/model"
)

// contextStore is the "context" store: a tool is loaded while a
// successful search_tools or load_tool result naming it is among the
// step's messages. It survives restarts (the messages are the record) and
// forgets a tool once the result leaves the messages.
//
// Between a load and the step whose messages show its result, a
// same-process set per thread bridges the gap; it only ever adds to what
// the messages say, is pruned of what they confirm, and is never kept for
// runs without a thread. It is safe for concurrent use.
type contextStore struct {
	mu           sync.Mutex
	supplemental map[string]*nameSet
}

func newContextStore() *contextStore {
	return &contextStore{supplemental: make(map[string]*nameSet)}
}

// loaded is what the messages show, then the supplemental names. With
// msgs nil (a resume without the step's messages) the supplemental set is
// not pruned.
func (s *contextStore) loaded(threadID string, msgs []model.Message) []string {
	fromMessages := loadedFromMessages(msgs)
	if threadID == "" {
		return fromMessages.list()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sup := s.supplemental[threadID]
	if sup == nil || sup.len() == 0 {
		delete(s.supplemental, threadID)
		return fromMessages.list()
	}
	if msgs != nil {
		for _, n := range sup.list() {
			if fromMessages.contains(n) {
				sup.remove(n)
			}
		}
		if sup.len() == 0 {
			delete(s.supplemental, threadID)
		}
	}
	for _, n := range sup.names {
		fromMessages.add(n)
	}
	return fromMessages.names
}

func (s *contextStore) add(threadID string, names []string) {
	if len(names) == 0 || threadID == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sup := s.supplemental[threadID]
	if sup == nil {
		sup = &nameSet{}
		s.supplemental[threadID] = sup
	}
	for _, n := range names {
		sup.add(n)
	}
}

// loadedFromMessages collects the tool names that successful search_tools
// and load_tool results in msgs activated, in order: a single-form
// load_tool's toolName when success is true, every results[].name of a
// search (Mastra counts them whether or not autoLoad was on) and every
// loaded[] name.
func loadedFromMessages(msgs []model.Message) *nameSet {
	out := &nameSet{}
	for _, m := range msgs {
		for _, part := range m.Content {
			r := part.ToolResult
			if part.Type != model.MessageToolResult || r == nil || !isMetaTool(r.ToolName) || r.Output.Type != "json" {
				continue
			}
			for _, n := range activatedNames(r.Output.Value) {
				out.add(n)
			}
		}
	}
	return out
}

// activatedNames reads one meta-tool result (a Go value or decoded JSON).
func activatedNames(v any) []string {
	switch out := v.(type) {
	case SearchOutput:
		names := make([]string, len(out.Results))
		for i, r := range out.Results {
			names[i] = r.Name
		}
		return names
	case LoadOutput:
		var names []string
		if out.Success && out.ToolName != "" {
			names = append(names, out.ToolName)
		}
		return append(names, out.Loaded...)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		b, err := json.Marshal(v)
		if err != nil || json.Unmarshal(b, &obj) != nil {
			return nil
		}
	}
	var names []string
	if name, ok := obj["toolName"].(string); ok && obj["success"] == true {
		names = append(names, name)
	}
	if results, ok := obj["results"].([]any); ok {
		for _, r := range results {
			if e, ok := r.(map[string]any); ok {
				if name, ok := e["name"].(string); ok {
					names = append(names, name)
				}
			}
		}
	}
	if loaded, ok := obj["loaded"].([]any); ok {
		for _, l := range loaded {
			if name, ok := l.(string); ok {
				names = append(names, name)
			}
		}
	}
	return names
}
