package toolsearch

import (
	"slices"
	"strings"
	"sync"

	"github.com/gomastra/mastra/tools"
)

// Names of the meta-tools the processor adds.
const (
	SearchToolName = "search_tools"
	LoadToolName   = "load_tool"
)

func isMetaTool(name string) bool { return name == SearchToolName || name == LoadToolName }

// SearchInput is search_tools' input.
type SearchInput struct {
	Query string `json:"query"`
}

// SearchOutput is search_tools' result. Results is never nil: no match is
// an empty array and a message saying so.
type SearchOutput struct {
	Results []SearchResult `json:"results"`
	Message string         `json:"message"`
}

// LoadInput is load_tool's input. A nil ToolNames is the absent key; an
// empty non-nil one is the model's [] (which, with no ToolName, is an
// error result).
type LoadInput struct {
	ToolName  string   `json:"toolName,omitempty"`
	ToolNames []string `json:"toolNames,omitempty"`
}

// LoadOutput is load_tool's result, in one of Mastra's forms:
//
//   - single (ToolName alone): Success, Message, ToolName;
//   - multi (ToolNames given): Success (nothing not found), Message
//     ("Loaded: … | Already loaded: … | Not found: …"), LoadedCount and
//     the non-empty lists among Loaded, NotFound, AlreadyLoaded;
//   - bad input: Success false and Message.
type LoadOutput struct {
	Success       bool     `json:"success"`
	Message       string   `json:"message"`
	LoadedCount   *int     `json:"loadedCount,omitempty"`
	ToolName      string   `json:"toolName,omitempty"`
	Loaded        []string `json:"loaded,omitempty"`
	NotFound      []string `json:"notFound,omitempty"`
	AlreadyLoaded []string `json:"alreadyLoaded,omitempty"`
}

// stepState is what one step's meta-tools share: the step's catalogue,
// thread and request context, and the names loaded as of the step's
// start plus those the meta-tools load during it. Calls of one step may
// run in parallel; mu guards loaded.
type stepState struct {
	p        *Processor
	cat      *catalog
	threadID string
	rc       *tools.RequestContext

	mu     sync.Mutex
	loaded *nameSet
}

// metaTools builds the step's search_tools and (unless autoLoad)
// load_tool.
func (st *stepState) metaTools() (search, load *tools.Tool, err error) {
	desc := searchToolDescription
	if st.p.autoLoad {
		desc = searchToolAutoLoadDescription
	}
	search, err = tools.Build(tools.Config[SearchInput, SearchOutput]{
		ID: SearchToolName, Description: desc,
		InputSchema: searchInputSchema, OutputSchema: searchOutputSchema,
		Execute: st.searchTools,
	})
	if err != nil || st.p.autoLoad {
		return search, nil, err
	}
	load, err = tools.Build(tools.Config[LoadInput, LoadOutput]{
		ID: LoadToolName, Description: loadToolDescription,
		InputSchema: loadInputSchema, OutputSchema: loadOutputSchema,
		Execute: st.loadTool,
	})
	return search, load, err
}

// searchTools runs search_tools; with autoLoad the matches are loaded.
func (st *stepState) searchTools(ctx tools.Context, in SearchInput) (SearchOutput, error) {
	results := st.p.search(ctx, st.cat, in.Query, st.rc)
	if len(results) == 0 {
		return SearchOutput{Results: []SearchResult{}, Message: noResultsMessage(in.Query)}, nil
	}
	if !st.p.autoLoad {
		return SearchOutput{Results: results, Message: foundMessage(len(results))}, nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	var newly []string
	for _, r := range results {
		if !st.loaded.contains(r.Name) {
			newly = append(newly, r.Name)
		}
	}
	st.p.store.add(st.threadID, newly)
	for _, n := range newly {
		st.loaded.add(n)
	}
	return SearchOutput{Results: results, Message: foundAndLoadedMessage(results, len(newly))}, nil
}

// loadTool runs load_tool.
func (st *stepState) loadTool(ctx tools.Context, in LoadInput) (LoadOutput, error) {
	namesGiven := in.ToolNames != nil
	var toLoad []string
	switch {
	case namesGiven && len(in.ToolNames) == 0 && in.ToolName == "":
		return LoadOutput{Message: emptyToolNamesMessage}, nil
	case len(in.ToolNames) > 0:
		toLoad = setOf(append(slices.Clone(in.ToolNames), nonEmpty(in.ToolName)...)).names
	case in.ToolName != "":
		toLoad = []string{in.ToolName}
	default:
		return LoadOutput{Message: noToolNameMessage}, nil
	}
	// Which names exist and may be loaded: asked outside the lock, since
	// the filter is the caller's code.
	found := make([]bool, len(toLoad))
	filtered := st.p.filter != nil
	for i, name := range toLoad {
		t := st.cat.byName(name, filtered)
		found[i] = t != nil && st.p.allowed(ctx, t, st.rc, PhaseLoad)
	}
	var loaded, alreadyLoaded, notFound []string
	st.mu.Lock()
	for i, name := range toLoad {
		switch {
		case !found[i]:
			notFound = append(notFound, name)
		case st.loaded.contains(name) || slices.Contains(loaded, name):
			alreadyLoaded = append(alreadyLoaded, name)
		default:
			loaded = append(loaded, name)
		}
	}
	st.p.store.add(st.threadID, loaded)
	for _, n := range loaded {
		st.loaded.add(n)
	}
	st.mu.Unlock()

	if len(toLoad) == 1 && !namesGiven {
		name := toLoad[0]
		switch {
		case len(notFound) > 0:
			return LoadOutput{Message: notFoundMessage(name, st.suggestions(ctx, name)), ToolName: name}, nil
		case len(alreadyLoaded) > 0:
			return LoadOutput{Success: true, Message: alreadyLoadedMessage(name), ToolName: name}, nil
		default:
			return LoadOutput{Success: true, Message: loadedMessage(name), ToolName: name}, nil
		}
	}
	count := len(loaded)
	return LoadOutput{
		Success: len(notFound) == 0, Message: multiLoadMessage(loaded, alreadyLoaded, notFound),
		LoadedCount: &count, Loaded: loaded, NotFound: notFound, AlreadyLoaded: alreadyLoaded,
	}, nil
}

// suggestions are the catalogue keys that contain name or that name
// contains, ignoring case; with a filter, the first three it allows for
// loading.
func (st *stepState) suggestions(ctx tools.Context, name string) []string {
	lower := jsLower(name)
	filtered := st.p.filter != nil
	var out []string
	for _, key := range st.cat.keys {
		k := jsLower(key)
		if !strings.Contains(k, lower) && !strings.Contains(lower, k) {
			continue
		}
		if !filtered {
			out = append(out, key)
			continue
		}
		t := st.cat.byName(key, true)
		if t != nil && st.p.allowed(ctx, t, st.rc, PhaseLoad) {
			out = append(out, key)
			if len(out) >= 3 {
				break
			}
		}
	}
	return out
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}
