package main

import (
	"io"
	"math"
)

// writeJSON prints v as one line of JSON (or 2-space indented with
// --pretty) followed by a newline.
func writeJSON(w io.Writer, v any, pretty bool) {
	_, _ = io.WriteString(w, stringify(v, pretty)+"\n")
}

// successEnvelope is the value printed on success: {"data": ...}, and for
// list commands {"data": [...], "page": {total, page, perPage, hasMore}}.
func successEnvelope(data any, list bool, shape responseShape) *jsObject {
	if !list {
		return objectOf("data", data)
	}
	items, page := extractList(data, shape)
	return objectOf("data", items, "page", page)
}

// extractList finds the items of a list response (an array, a record of
// items, or an array property) and its pagination, defaulting to one page
// holding everything.
func extractList(data any, shape responseShape) ([]any, *jsObject) {
	switch t := data.(type) {
	case []any:
		n := float64(len(t))
		return t, objectOf("total", n, "page", 0.0, "perPage", n, "hasMore", false)
	case *jsObject:
		items := findArray(t, shape)
		if items == nil {
			items = []any{}
		}
		var pageRecord any = t
		if nested := coalesce(t.lookup("page"), t.lookup("pagination")); truthy(nested) && isObject(nested) {
			pageRecord = nested
		}
		return items, normalizePage(pageRecord, len(items))
	}
	return []any{}, objectOf("total", 0.0, "page", 0.0, "perPage", 0.0, "hasMore", false)
}

func normalizePage(record any, itemCount int) *jsObject {
	number := func(k string, fallback float64) any {
		if f, ok := property(record, k).(float64); ok {
			return f
		}
		return fallback
	}
	total := number("total", float64(itemCount))
	page := number("page", 0)
	var perPage any = float64(itemCount)
	switch v := property(record, "perPage").(type) {
	case float64:
		perPage = v
	case bool:
		if !v {
			perPage = false
		}
	}
	hasMore := false
	if b, ok := property(record, "hasMore").(bool); ok {
		hasMore = b
	}
	return objectOf("total", total, "page", page, "perPage", perPage, "hasMore", hasMore)
}

func findArray(record *jsObject, shape responseShape) []any {
	if shape.kind == "record" {
		_, vals := entries(record)
		return vals
	}
	if shape.kind == "object-property" && shape.listProperty != "" {
		if arr, ok := record.lookup(shape.listProperty).([]any); ok {
			return arr
		}
	}
	if arr, ok := record.lookup("data").([]any); ok {
		return arr
	}
	_, vals := entries(record)
	allObjects := true
	for _, v := range vals {
		if _, ok := v.(*jsObject); !ok {
			allObjects = false
			break
		}
	}
	if allObjects {
		return vals
	}
	for _, v := range vals {
		if arr, ok := v.([]any); ok {
			return arr
		}
	}
	return nil
}

// jsString is String(v) for a primitive, JSON.stringify(v) for an object
// (how the Mastra CLI turns input values into query parameters).
func jsString(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case bool:
		if t {
			return "true"
		}
		return "false"
	case float64:
		switch {
		case math.IsInf(t, 1):
			return "Infinity"
		case math.IsInf(t, -1):
			return "-Infinity"
		case math.IsNaN(t):
			return "NaN"
		}
	}
	return stringify(v, false)
}
