package toolsearch

import (
	"context"
	"fmt"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/tools"
)

// NamedTool is a tool under its model-facing name.
type NamedTool struct {
	Name string
	Tool *tools.Tool
}

// Step is what the processor needs to know about one model call.
type Step struct {
	// ThreadID is the run's memory thread ("" without one). The request
	// context's tools.ThreadIDKey, when set, wins over it.
	ThreadID string
	// RequestContext is the run's (nil: an empty one).
	RequestContext *tools.RequestContext
	// Messages are what the model will be given; StorageContext reads
	// loaded tools from them.
	Messages []model.Message
	// Tools are the tools the step would offer without the processor, in
	// order.
	Tools []NamedTool
}

// Prepared is what the model should be given at the step.
type Prepared struct {
	// System are system messages to add after the existing ones: the
	// meta-tools' guidance, then the catalogue when InjectCatalog is set
	// (and it lists anything).
	System []string
	// Tools replace Step.Tools: search_tools, load_tool (unless
	// AutoLoad), the step's tools (with IncludeResolvedTools only those
	// named like a meta-tool), then the loaded tools the filter lets be
	// active. A later tool with a name already listed takes that place.
	Tools []NamedTool
}

// Prepare decides the step's system messages and tools. The meta-tools
// it returns belong to this step: tools they load are offered by the next
// Prepare of the same thread. It fails only on a Step.Tools entry without
// a name or tool.
func (p *Processor) Prepare(ctx context.Context, s Step) (*Prepared, error) {
	st, err := p.newStep(s)
	if err != nil {
		return nil, err
	}
	out := &Prepared{System: []string{guidanceMessage}}
	if p.autoLoad {
		out.System[0] = guidanceAutoLoadMessage
	}
	if p.injectCatalog {
		if list := p.formatCatalog(ctx, st.cat, st.rc); list != "" {
			header := catalogHeader
			if p.autoLoad {
				header = catalogAutoLoadHeader
			}
			out.System = append(out.System, header+catalogListIntro+list)
		}
	}
	search, load, err := st.metaTools()
	if err != nil {
		return nil, fmt.Errorf("toolsearch: %w", err)
	}
	var list toolList
	list.set(SearchToolName, search)
	if load != nil {
		list.set(LoadToolName, load)
	}
	for _, nt := range s.Tools {
		if !p.includeResolved || isMetaTool(nt.Name) {
			list.set(nt.Name, nt.Tool)
		}
	}
	for _, nt := range p.activeTools(ctx, st.cat, st.loaded.names, st.rc) {
		list.set(nt.Name, nt.Tool)
	}
	out.Tools = list.tools
	return out, nil
}

// LoadedTools are the tools loaded for the step's thread that the filter
// lets be active, in load order: what a resumed run needs to execute a
// call to a loaded tool (one that waited for approval, say) without a new
// Prepare. With StorageContext and no Step.Messages only this process's
// recent loads are known.
func (p *Processor) LoadedTools(ctx context.Context, s Step) ([]NamedTool, error) {
	st, err := p.newStep(s)
	if err != nil {
		return nil, err
	}
	return p.activeTools(ctx, st.cat, st.loaded.names, st.rc), nil
}

// newStep resolves a step's catalogue, thread, request context and
// loaded names.
func (p *Processor) newStep(s Step) (*stepState, error) {
	for i, nt := range s.Tools {
		if nt.Name == "" || nt.Tool == nil {
			return nil, fmt.Errorf("toolsearch: step tool %d (%q) has no name or no tool", i, nt.Name)
		}
	}
	rc := s.RequestContext
	if rc == nil {
		rc = tools.NewRequestContext(nil)
	}
	threadID := s.ThreadID
	if v, ok := rc.Get(tools.ThreadIDKey); ok {
		if id, ok := v.(string); ok && id != "" {
			threadID = id
		}
	}
	cat := p.static
	if p.includeResolved {
		cat = cat.withResolved(s.Tools)
	}
	return &stepState{
		p: p, cat: cat, threadID: threadID, rc: rc,
		loaded: setOf(p.store.loaded(threadID, s.Messages)),
	}, nil
}

// activeTools are the loaded names that resolve to a catalogue tool the
// filter lets be active, under the name they were loaded by.
func (p *Processor) activeTools(ctx context.Context, c *catalog, loaded []string, rc *tools.RequestContext) []NamedTool {
	var out []NamedTool
	for _, name := range loaded {
		if t := c.byName(name, p.filter != nil); t != nil && p.allowed(ctx, t, rc, PhaseActive) {
			out = append(out, NamedTool{Name: name, Tool: t})
		}
	}
	return out
}

// formatCatalog lists the catalogue for the system message: one
// "- `id`: description" line per tool the filter lets be searched (the
// description cut as in search results; no ": " part without one).
func (p *Processor) formatCatalog(ctx context.Context, c *catalog, rc *tools.RequestContext) string {
	var b []byte
	for _, key := range c.keys {
		t := c.byName(key, p.filter != nil)
		if t == nil || !p.allowed(ctx, t, rc, PhaseSearch) {
			continue
		}
		name := toolName(key, t)
		if len(b) > 0 {
			b = append(b, '\n')
		}
		b = append(b, "- `"...)
		b = append(b, name...)
		b = append(b, '`')
		if d := truncateDescription(c.descriptions[name]); d != "" {
			b = append(b, ": "...)
			b = append(b, d...)
		}
	}
	return string(b)
}

// toolList is an ordered name → tool list where setting a listed name
// replaces its tool in place.
type toolList struct {
	tools []NamedTool
	at    map[string]int
}

func (l *toolList) set(name string, t *tools.Tool) {
	if i, ok := l.at[name]; ok {
		l.tools[i].Tool = t
		return
	}
	if l.at == nil {
		l.at = make(map[string]int)
	}
	l.at[name] = len(l.tools)
	l.tools = append(l.tools, NamedTool{Name: name, Tool: t})
}
