package toolsearch

import (
	"github.com/gomastra/mastra/tools"
)

// catalog is a searchable set of tools: the tools by key, in key order,
// and a BM25 index whose documents are named by tool id and hold
// "<id> <description>". It is immutable once built.
type catalog struct {
	keys  []string
	byKey map[string]*tools.Tool
	// byID is the first tool (in key order) with each id.
	byID map[string]*tools.Tool
	// descriptions are by id; a repeated id keeps the last description.
	descriptions map[string]string
	index        *bm25Index
}

// newCatalog indexes the tools in keys order.
func newCatalog(keys []string, byKey map[string]*tools.Tool) *catalog {
	c := &catalog{
		keys: keys, byKey: byKey,
		byID:         make(map[string]*tools.Tool, len(keys)),
		descriptions: make(map[string]string, len(keys)),
	}
	docs := make([]indexDoc, 0, len(keys))
	for _, key := range keys {
		t := byKey[key]
		name := toolName(key, t)
		if _, ok := c.byID[t.ID()]; !ok && t.ID() != "" {
			c.byID[t.ID()] = t
		}
		c.descriptions[name] = t.Description()
		docs = append(docs, indexDoc{name: name, text: name + " " + t.Description()})
	}
	c.index = newBM25Index(docs)
	return c
}

// toolName is the name a catalogue tool is indexed and reported under:
// its id, or its key when it has none.
func toolName(key string, t *tools.Tool) string {
	if id := t.ID(); id != "" {
		return id
	}
	return key
}

// withResolved is c plus the request's resolved tools (the meta-tool
// names excepted): a resolved key already in c takes its place, new keys
// come after c's, in the order given.
func (c *catalog) withResolved(resolved []NamedTool) *catalog {
	keys := append([]string(nil), c.keys...)
	byKey := make(map[string]*tools.Tool, len(c.byKey)+len(resolved))
	for k, t := range c.byKey {
		byKey[k] = t
	}
	added := false
	for _, nt := range resolved {
		if isMetaTool(nt.Name) {
			continue
		}
		if _, ok := byKey[nt.Name]; !ok {
			keys = append(keys, nt.Name)
		}
		byKey[nt.Name] = nt.Tool
		added = true
	}
	if !added {
		return c
	}
	return newCatalog(keys, byKey)
}

// byName finds the tool a model names: with a filter configured the id
// is tried first and then the key, without one the key first (Mastra's
// order in both cases).
func (c *catalog) byName(name string, filtered bool) *tools.Tool {
	if filtered {
		if t := c.byID[name]; t != nil {
			return t
		}
		return c.byKey[name]
	}
	if t := c.byKey[name]; t != nil {
		return t
	}
	return c.byID[name]
}
