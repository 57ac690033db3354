package workflows

import (
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/schema"
)

// connects reports whether values of schema from can be given to a step
// whose input schema is to, as far as their JSON Schemas tell: their
// types agree (an integer is a number) and every property to requires is
// one from has, recursively. Either schema nil (unknown) connects.
func connects(from, to schema.Schema) error {
	if from == nil || to == nil {
		return nil
	}
	return connectSchemas(from.JSONSchema(), to.JSONSchema(), "")
}

func connectSchemas(from, to *jsonschema.Schema, path string) error {
	if from == nil || to == nil {
		return nil
	}
	ft, tt := typeOf(from), typeOf(to)
	if ft != "" && tt != "" && ft != tt && !(ft == "integer" && tt == "number") {
		where := "the value"
		if path != "" {
			where = "property " + path
		}
		return fmt.Errorf("%s: expected %s, got %s", where, tt, ft)
	}
	if tt == "object" && ft == "object" {
		for _, name := range to.Required {
			sub := to.Properties[name]
			fromSub, ok := from.Properties[name]
			if !ok {
				if from.AdditionalProperties != nil && !isFalse(from.AdditionalProperties) && len(from.Properties) == 0 {
					continue
				}
				return fmt.Errorf("missing required property %q", join(path, name))
			}
			if err := connectSchemas(fromSub, sub, join(path, name)); err != nil {
				return err
			}
		}
	}
	if tt == "array" && ft == "array" {
		return connectSchemas(from.Items, to.Items, path+"[]")
	}
	return nil
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// typeOf is a schema's single non-null type, or "".
func typeOf(s *jsonschema.Schema) string {
	if s.Type != "" {
		return s.Type
	}
	var types []string
	for _, t := range s.Types {
		if t != "null" {
			types = append(types, t)
		}
	}
	if len(types) == 1 {
		return types[0]
	}
	return ""
}

func isFalse(s *jsonschema.Schema) bool {
	return s.Not != nil && typeOf(s) == "" && len(s.Properties) == 0
}

// outputOf is the schema of what a node passes on (nil: unknown).
func outputOf(n *node, prev schema.Schema) schema.Schema {
	switch n.kind {
	case kindStep, kindDoWhile, kindDoUntil:
		return n.steps[0].OutputSchema()
	case kindParallel, kindBranch:
		obj := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}}
		for _, s := range n.steps {
			if o := s.OutputSchema(); o != nil {
				obj.Properties[s.ID()] = o.JSONSchema()
			} else {
				obj.Properties[s.ID()] = &jsonschema.Schema{}
			}
			obj.PropertyOrder = append(obj.PropertyOrder, s.ID())
			if n.kind == kindParallel {
				obj.Required = append(obj.Required, s.ID())
			}
		}
		return compiled(obj)
	case kindForeach:
		var items *jsonschema.Schema
		if o := n.steps[0].OutputSchema(); o != nil {
			items = o.JSONSchema()
		}
		return compiled(&jsonschema.Schema{Type: "array", Items: items})
	case kindSleep:
		return prev
	}
	return nil
}

// itemsOf is the schema of an array schema's elements (nil: unknown).
func itemsOf(s schema.Schema) schema.Schema {
	if s == nil {
		return nil
	}
	js := s.JSONSchema()
	if js == nil || typeOf(js) != "array" || js.Items == nil {
		return nil
	}
	return compiled(js.Items)
}

func compiled(s *jsonschema.Schema) schema.Schema {
	c, err := schema.Compile(s)
	if err != nil {
		return nil
	}
	return c
}
