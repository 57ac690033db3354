package compat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// node is a decoded JSON value that keeps the order of object members, so
// that comparisons can report key order apart from values.
type node struct {
	kind byte             // 'o' object, 'a' array, 'v' scalar
	keys []string         // object: member names, in order
	obj  map[string]*node // object: members
	arr  []*node          // array: elements
	val  any              // scalar: string, json.Number, bool or nil
}

// decodeOrdered decodes one JSON text into a node.
func decodeOrdered(text string) (*node, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	n, err := decodeNode(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("text after the JSON value")
	}
	return n, nil
}

func decodeNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		n := &node{kind: 'o', obj: map[string]*node{}}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k := kt.(string) // the decoder only yields strings as member names
			v, err := decodeNode(dec)
			if err != nil {
				return nil, err
			}
			if _, dup := n.obj[k]; !dup {
				n.keys = append(n.keys, k)
			}
			n.obj[k] = v
		}
		_, err := dec.Token() // '}'
		return n, err
	case json.Delim('['):
		n := &node{kind: 'a', arr: []*node{}}
		for dec.More() {
			v, err := decodeNode(dec)
			if err != nil {
				return nil, err
			}
			n.arr = append(n.arr, v)
		}
		_, err := dec.Token() // ']'
		return n, err
	default:
		return &node{kind: 'v', val: tok}, nil
	}
}

// member returns the object member at the path of keys, or nil.
func (n *node) member(path ...string) *node {
	for _, k := range path {
		if n == nil || n.kind != 'o' {
			return nil
		}
		n = n.obj[k]
	}
	return n
}

// drop removes object members.
func (n *node) drop(keys ...string) {
	if n == nil || n.kind != 'o' {
		return
	}
	for _, k := range keys {
		if _, ok := n.obj[k]; !ok {
			continue
		}
		delete(n.obj, k)
		for i, kk := range n.keys {
			if kk == k {
				n.keys = append(n.keys[:i:i], n.keys[i+1:]...)
				break
			}
		}
	}
}

// str is n's string value, or "".
func (n *node) str() string {
	if n == nil || n.kind != 'v' {
		return ""
	}
	s, _ := n.val.(string)
	return s
}

// walk calls f on n and every value inside it, parents first.
func (n *node) walk(f func(*node)) {
	if n == nil {
		return
	}
	f(n)
	for _, k := range n.keys {
		n.obj[k].walk(f)
	}
	for _, e := range n.arr {
		e.walk(f)
	}
}

// String renders n as compact JSON.
func (n *node) String() string {
	var b strings.Builder
	n.write(&b)
	return b.String()
}

func (n *node) write(b *strings.Builder) {
	switch n.kind {
	case 'o':
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeScalar(b, k)
			b.WriteByte(':')
			n.obj[k].write(b)
		}
		b.WriteByte('}')
	case 'a':
		b.WriteByte('[')
		for i, e := range n.arr {
			if i > 0 {
				b.WriteByte(',')
			}
			e.write(b)
		}
		b.WriteByte(']')
	default:
		writeScalar(b, n.val)
	}
}

// writeScalar writes a string, json.Number, bool or nil as JSON, the way
// JSON.stringify does for them (no HTML escaping of <, > and &).
func writeScalar(b *strings.Builder, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // these scalars always encode
	b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// differences collects how a Go answer differs from real Mastra's.
type differences struct {
	values []string // values missing, extra or different
	order  []string // same members, another order
}

// compare records the differences between want (real Mastra) and got
// (Go) at path. Arrays of stream chunks (objects with a "type") are
// aligned by their types first, so that one extra or missing chunk is
// reported as such instead of shifting every later comparison.
func (d *differences) compare(path string, want, got *node) {
	if want.kind != got.kind {
		d.values = append(d.values, fmt.Sprintf("%s: real Mastra %s, Go %s", path, clipJSON(want), clipJSON(got)))
		return
	}
	switch want.kind {
	case 'v':
		if want.val != got.val {
			d.values = append(d.values, fmt.Sprintf("%s: real Mastra %s, Go %s", path, clipJSON(want), clipJSON(got)))
		}
	case 'o':
		same := len(want.keys) == len(got.keys)
		for _, k := range want.keys {
			g, ok := got.obj[k]
			if !ok {
				same = false
				d.values = append(d.values, fmt.Sprintf("%s.%s: only real Mastra has it: %s", path, k, clipJSON(want.obj[k])))
				continue
			}
			d.compare(path+"."+k, want.obj[k], g)
		}
		for _, k := range got.keys {
			if _, ok := want.obj[k]; !ok {
				d.values = append(d.values, fmt.Sprintf("%s.%s: only Go has it: %s", path, k, clipJSON(got.obj[k])))
			}
		}
		if same && strings.Join(want.keys, ",") != strings.Join(got.keys, ",") {
			d.order = append(d.order, fmt.Sprintf("%s: real Mastra {%s}, Go {%s}", orRoot(path), strings.Join(want.keys, ","), strings.Join(got.keys, ",")))
		}
	case 'a':
		if chunkTypes(want.arr) != nil && chunkTypes(got.arr) != nil {
			d.compareChunks(path, want.arr, got.arr)
			return
		}
		for i := range max(len(want.arr), len(got.arr)) {
			p := fmt.Sprintf("%s[%d]", path, i)
			switch {
			case i >= len(got.arr):
				d.values = append(d.values, fmt.Sprintf("%s: only real Mastra has it: %s", p, clipJSON(want.arr[i])))
			case i >= len(want.arr):
				d.values = append(d.values, fmt.Sprintf("%s: only Go has it: %s", p, clipJSON(got.arr[i])))
			default:
				d.compare(p, want.arr[i], got.arr[i])
			}
		}
	}
}

// compareChunks aligns two chunk lists on their types (longest common
// subsequence), reports the unmatched chunks and compares the matched ones.
func (d *differences) compareChunks(path string, want, got []*node) {
	wt, gt := chunkTypes(want), chunkTypes(got)
	if strings.Join(wt, " ") != strings.Join(gt, " ") {
		d.values = append(d.values, fmt.Sprintf("%s: element types differ\n    real Mastra: %s\n    Go:          %s", path, strings.Join(wt, " "), strings.Join(gt, " ")))
	}
	// lcs[i][j] is the length of the longest common subsequence of
	// wt[i:] and gt[j:].
	lcs := make([][]int, len(wt)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(gt)+1)
	}
	for i := len(wt) - 1; i >= 0; i-- {
		for j := len(gt) - 1; j >= 0; j-- {
			if wt[i] == gt[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(wt) && j < len(gt) {
		switch {
		case wt[i] == gt[j]:
			d.compare(fmt.Sprintf("%s[%d %s]", path, j, gt[j]), want[i], got[j])
			i++
			j++
		case lcs[i+1][j] >= lcs[i][j+1]:
			i++ // missing from Go: reported by the type lists above
		default:
			j++ // extra in Go: reported by the type lists above
		}
	}
}

// chunkTypes returns the "type" of each element when every element is an
// object with a string type, else nil.
func chunkTypes(arr []*node) []string {
	if len(arr) == 0 {
		return nil
	}
	types := make([]string, len(arr))
	for i, e := range arr {
		t := e.member("type").str()
		if t == "" {
			return nil
		}
		types[i] = t
	}
	return types
}

func orRoot(path string) string {
	if path == "" {
		return "(top)"
	}
	return path
}

// clipJSON renders n for a message, shortened.
func clipJSON(n *node) string {
	s := n.String()
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
