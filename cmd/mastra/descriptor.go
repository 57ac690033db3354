package main

import (
	"regexp"
	"slices"
	"strings"
)

// apiRoute is what the CLI knows about one server route without asking the
// server: the data of the Mastra CLI's generated route metadata
// (route-metadata.generated.ts in the `mastra` package, which lists the
// route's method, path, parameters and response shape).
type apiRoute struct {
	method      string
	path        string
	queryParams []string
	bodyParams  []string
	hasBody     bool
	shape       responseShape
}

// responseShape says where a route's list lives: "record" (an object of
// items keyed by id), "object-property" (an array under listProperty, its
// paging under paginationProperty), "array" or "single". --schema prints
// it; paginationProperty is only printed (the Mastra CLI reads a list's
// paging from "page" or "pagination", whatever the route says).
type responseShape struct {
	kind               string
	listProperty       string
	paginationProperty string
}

func (s responseShape) value() *jsObject {
	o := objectOf("kind", s.kind)
	if s.listProperty != "" {
		o.set("listProperty", s.listProperty)
	}
	if s.paginationProperty != "" {
		o.set("paginationProperty", s.paginationProperty)
	}
	return o
}

// inputMode is whether a command takes the inline JSON argument.
type inputMode int

const (
	inputNone inputMode = iota
	inputOptional
	inputRequired
)

// example is one usage example, printed by --help and --schema.
type example struct{ description, command string }

// actionSpec is the hand-written part of a command (the Mastra CLI's
// addAction options).
type actionSpec struct {
	description string
	list        bool
	input       *inputMode // nil: optional for lists and routes with a body, else none
	positionals []string   // nil: the route's path parameters but pathParamsFromInput
	// pathParamsFromInput are path parameters taken from the input's
	// string fields instead of positional arguments (`memory current get`
	// reads threadId from its JSON).
	pathParamsFromInput []string
	defaultTimeoutMs    float64 // used when --timeout is not given
	examples            []example
	toolErrorsFlag      bool // takes --show-tool-errors
}

// descriptor is one leaf command of `mastra api`, everything execution,
// --schema and --help need.
type descriptor struct {
	key              string // camelCase command path: "toolExecute", "workflowRunStart"
	name             string // command path below `api`: "tool execute"
	description      string
	method           string
	path             string
	positionals      []string
	acceptsInput     bool
	inputRequired    bool
	list             bool
	shape            responseShape
	queryParams      []string
	bodyParams       []string
	defaultTimeoutMs float64
	examples         []example
	toolErrorsFlag   bool // takes --show-tool-errors (agent run)
}

var pathParamPattern = regexp.MustCompile(`:([A-Za-z0-9_]+)`)

// pathParamNames lists the :name parameters of a route path.
func pathParamNames(path string) []string {
	var names []string
	for _, m := range pathParamPattern.FindAllStringSubmatch(path, -1) {
		names = append(names, m[1])
	}
	return names
}

func newDescriptor(groupPath []string, name string, r apiRoute, a actionSpec) *descriptor {
	full := append(append([]string(nil), groupPath...), name)
	positionals := a.positionals
	if positionals == nil {
		for _, p := range pathParamNames(r.path) {
			if !slices.Contains(a.pathParamsFromInput, p) {
				positionals = append(positionals, p)
			}
		}
	}
	mode := inputNone
	switch {
	case a.input != nil:
		mode = *a.input
	case a.list, r.hasBody:
		mode = inputOptional
	}
	key := full[0]
	for _, part := range full[1:] {
		key += strings.ToUpper(part[:1]) + part[1:]
	}
	return &descriptor{
		key:              key,
		name:             strings.Join(full, " "),
		description:      a.description,
		method:           r.method,
		path:             r.path,
		positionals:      positionals,
		acceptsInput:     mode != inputNone,
		inputRequired:    mode == inputRequired,
		list:             a.list,
		shape:            r.shape,
		queryParams:      r.queryParams,
		bodyParams:       r.bodyParams,
		defaultTimeoutMs: a.defaultTimeoutMs,
		examples:         a.examples,
		toolErrorsFlag:   a.toolErrorsFlag,
	}
}

// usage is the command line --schema reports:
// "mastra api tool execute <toolId> <input>".
func (d *descriptor) usage() string {
	parts := []string{"mastra api", d.name}
	for _, p := range d.positionals {
		parts = append(parts, "<"+p+">")
	}
	if d.acceptsInput {
		if d.inputRequired {
			parts = append(parts, "<input>")
		} else {
			parts = append(parts, "[input]")
		}
	}
	return strings.Join(parts, " ")
}

// allExamples is the command's examples, or the generic one the Mastra CLI
// makes up for commands without any.
func (d *descriptor) allExamples() []example {
	if len(d.examples) > 0 {
		return d.examples
	}
	command := "mastra api " + d.name
	switch {
	case d.list:
		if d.acceptsInput {
			command += ` '{"page":0,"perPage":50}'`
		}
	case !d.acceptsInput:
		for _, p := range d.positionals {
			command += " " + p + "_123"
		}
	default:
		sample := "{}"
		if d.method == "GET" && d.inputRequired {
			sample = d.sampleInputWithPathParams()
		}
		command += " '" + sample + "'"
	}
	return []example{{d.description, command}}
}

func (d *descriptor) sampleInputWithPathParams() string {
	o := newObject()
	for _, p := range pathParamNames(d.path) {
		isPositional := false
		for _, q := range d.positionals {
			isPositional = isPositional || q == p
		}
		if !isPositional {
			o.set(p, p+"_123")
		}
	}
	if o.len() == 0 {
		return "{}"
	}
	return stringify(o, false)
}

func inputModeOf(m inputMode) *inputMode { return &m }
