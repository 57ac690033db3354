package toolsearch

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/tools"
)

// ProcessorID is the processor's id (Mastra's "tool-search").
const ProcessorID = "tool-search"

// DefaultTopK is how many results search_tools returns by default.
const DefaultTopK = 5

// StorageMode says where the processor keeps which tools are loaded.
type StorageMode string

const (
	// StorageInMemory (the default) keeps loaded tools per thread in this
	// process, each thread forgotten once unused for Options.TTL. Runs
	// without a thread share the "default" entry.
	StorageInMemory StorageMode = "in-memory"
	// StorageContext derives them from the step's messages: a tool is
	// loaded while a successful search_tools or load_tool result naming it
	// is among them. It needs no memory and survives restarts.
	StorageContext StorageMode = "context"
)

// SearchOptions tune search_tools.
type SearchOptions struct {
	// TopK is the most results returned (0: DefaultTopK).
	TopK int
	// MinScore drops results scoring at or below it (default 0).
	MinScore float64
	// AutoLoad loads every search result at once (available on the next
	// turn) and drops load_tool. Keep TopK small with it.
	AutoLoad bool
}

// Options configure a Processor.
type Options struct {
	// Tools is the catalogue the model searches and loads from; keys are
	// the names load_tool accepts besides the tools' ids. These tools are
	// not offered until loaded. Key order breaks ties between equal
	// search scores (Mastra's is the object's insertion order).
	Tools tools.Set
	// Search tunes search_tools.
	Search SearchOptions
	// IncludeResolvedTools makes the step's own tools (Step.Tools, the
	// meta-tool names excepted) searchable too and withholds them until
	// loaded, like catalogue tools.
	IncludeResolvedTools bool
	// InjectCatalog adds a system message listing every tool the filter
	// lets the model search (id and short description), so the model can
	// load without searching first.
	InjectCatalog bool
	// Storage is StorageInMemory (the default) or StorageContext.
	Storage StorageMode
	// TTL is how long the in-memory store keeps an unused thread's loaded
	// tools (0: DefaultTTL; negative: forever). Ignored by StorageContext.
	TTL time.Duration
	// Filter, when set, is asked whether a tool may be searched, loaded or
	// offered (FilterArgs.Phase); an error (or a panic) says no.
	Filter func(FilterArgs) error
	// Now is the in-memory store's clock (default time.Now).
	Now func() time.Time
}

// Processor is Mastra's ToolSearchProcessor: it hides a large tool
// catalogue behind two meta-tools. Before every model call (Prepare) it
// adds a system message about them and gives the model, in this order,
// search_tools, load_tool (unless Search.AutoLoad), the step's own tools,
// then the tools loaded so far, so that the list's prefix stays stable
// for prompt caching.
//
// search_tools ranks the catalogue with BM25 over "<id> <description>"
// (Mastra's tokenisation and parameters) plus name boosts; load_tool
// marks tools loaded for the thread. Loaded tools are offered from the
// next model call on, as they are: a tool that requires approval still
// does.
//
// A Processor is safe for concurrent use by many runs.
type Processor struct {
	static   *catalog
	topK     int
	minScore float64
	autoLoad bool

	includeResolved bool
	injectCatalog   bool
	filter          func(FilterArgs) error

	store loadedStore
	// mem is the in-memory store (nil with StorageContext).
	mem *memoryStore
}

// loadedStore keeps which tools are loaded: per thread ("" for a run
// without one), in load order. msgs are the step's messages, nil when a
// caller has none.
type loadedStore interface {
	loaded(threadID string, msgs []model.Message) []string
	add(threadID string, names []string)
}

// ErrBadOptions is wrapped by New's errors.
var ErrBadOptions = errors.New("toolsearch: bad options")

// New builds a processor and indexes its catalogue. It fails on a nil
// catalogue tool, a negative TopK, a MinScore that is not a number or an
// unknown Storage.
func New(opts Options) (*Processor, error) {
	keys := make([]string, 0, len(opts.Tools))
	for k, t := range opts.Tools {
		if t == nil {
			return nil, fmt.Errorf("%w: catalogue tool %q is nil", ErrBadOptions, k)
		}
		keys = append(keys, k)
	}
	if opts.Search.TopK < 0 {
		return nil, fmt.Errorf("%w: Search.TopK %d is negative", ErrBadOptions, opts.Search.TopK)
	}
	if math.IsNaN(opts.Search.MinScore) {
		return nil, fmt.Errorf("%w: Search.MinScore is NaN", ErrBadOptions)
	}
	p := &Processor{
		topK: cmp.Or(opts.Search.TopK, DefaultTopK), minScore: opts.Search.MinScore, autoLoad: opts.Search.AutoLoad,
		includeResolved: opts.IncludeResolvedTools, injectCatalog: opts.InjectCatalog, filter: opts.Filter,
	}
	switch opts.Storage {
	case "", StorageInMemory:
		now := opts.Now
		if now == nil {
			now = time.Now
		}
		p.mem = newMemoryStore(cmp.Or(opts.TTL, DefaultTTL), now)
		p.store = p.mem
	case StorageContext:
		p.store = newContextStore()
	default:
		return nil, fmt.Errorf("%w: unknown Storage %q (want %q or %q)", ErrBadOptions, opts.Storage, StorageInMemory, StorageContext)
	}
	slices.Sort(keys)
	p.static = newCatalog(keys, opts.Tools)
	return p, nil
}

// ID returns ProcessorID.
func (p *Processor) ID() string { return ProcessorID }
