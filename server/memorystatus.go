package server

import (
	"net/http"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/memory/observational"
)

// GET /memory/status?agentId=&resourceId=&threadId= -> {result,
// memoryType?, observationalMemory?}: {"result": true, "memoryType":
// "local"} for an agent that keeps memory, with observationalMemory
// (see omStatusOf) when it keeps observational memory; {"result":
// false} for one that keeps none; for an unknown agent, whether the
// server has a memory store to fall back to (see memoryReader).
func (s *Server) memoryStatus(w http.ResponseWriter, r *http.Request) {
	a, err := s.memoryAgent(r)
	switch {
	case err != nil:
		s.writeError(w, r, err)
	case a != nil && a.HasMemory() && omProcessor(a) != nil:
		s.writeJSON(w, r, http.StatusOK, localStatus{Result: true, MemoryType: "local", ObservationalMemory: omStatusOf(r, omProcessor(a))})
	case a != nil && a.HasMemory():
		wire.WriteJSON(w, http.StatusOK, []byte(`{"result":true,"memoryType":"local"}`))
	case a == nil && s.fallbackAgent() != nil:
		wire.WriteJSON(w, http.StatusOK, []byte(`{"result":true}`))
	default:
		wire.WriteJSON(w, http.StatusOK, []byte(`{"result":false}`))
	}
}

// memoryConfig is an agent's memory configuration as Mastra reports it.
type memoryConfig struct {
	LastMessages        any                 `json:"lastMessages"`
	SemanticRecall      any                 `json:"semanticRecall"`
	GenerateTitle       bool                `json:"generateTitle"`
	WorkingMemory       workingMemoryConfig `json:"workingMemory"`
	ObservationalMemory any                 `json:"observationalMemory"`
}

type workingMemoryConfig struct {
	Enabled  bool   `json:"enabled"`
	Scope    string `json:"scope,omitempty"`
	Template string `json:"template,omitempty"`
	Schema   any    `json:"schema,omitempty"`
}

// GET /memory/config?agentId= -> {config}: the agent's memory options
// with Mastra's defaults, or {"config": null} for an agent that is
// unknown or keeps no memory.
func (s *Server) memoryConfig(w http.ResponseWriter, r *http.Request) {
	a, err := s.memoryAgent(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if a == nil || !a.HasMemory() {
		wire.WriteJSON(w, http.StatusOK, []byte(`{"config":null}`))
		return
	}
	cfg := memoryConfig{LastMessages: a.LastMessages(), SemanticRecall: semanticRecallOf(a), WorkingMemory: workingMemoryOf(a),
		ObservationalMemory: observational.Settings{}}
	if om := omProcessor(a); om != nil {
		cfg.ObservationalMemory = om.Settings()
	}
	if a.LastMessages() < 0 {
		cfg.LastMessages = false
	}
	s.writeJSON(w, r, http.StatusOK, struct {
		Config memoryConfig `json:"config"`
	}{cfg})
}

// workingMemoryOf is the agent's working memory configuration; a
// disabled one still shows Mastra's default template, as Mastra's does.
func workingMemoryOf(a *agent.Agent) workingMemoryConfig {
	t := a.WorkingMemoryTemplate()
	if t == nil {
		return workingMemoryConfig{Template: agent.DefaultWorkingMemoryTemplate}
	}
	wm := workingMemoryConfig{Enabled: true, Scope: string(a.WorkingMemoryScope())}
	if t.Format == "json" {
		wm.Schema = t.Content
	} else {
		wm.Template = t.Content
	}
	return wm
}

// recallConfig is an agent's semantic recall as the config route shows it.
type recallConfig struct {
	TopK         int                `json:"topK"`
	MessageRange agent.MessageRange `json:"messageRange"`
	Scope        string             `json:"scope"`
	Threshold    float64            `json:"threshold,omitempty"`
	IndexName    string             `json:"indexName,omitempty"`
}

// semanticRecallOf is false, or the agent's semantic recall settings.
func semanticRecallOf(a *agent.Agent) any {
	sr := a.RecallSettings()
	if sr == nil {
		return false
	}
	return recallConfig{TopK: sr.TopK, MessageRange: *sr.MessageRange, Scope: string(sr.Scope), Threshold: sr.Threshold, IndexName: sr.IndexName}
}
