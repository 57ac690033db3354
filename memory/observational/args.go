package observational

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/gomastra/mastra/processors"
)

// Tool arguments as @mastra/memory 1.31.0's observer is shown them
// (tool-argument-helpers.ts, formatToolArgumentsForObserver): a
// breadth-first outline, a line per field, within 2,000 tokens, then
// previews of long strings. The tests compare it with Mastra's output
// (testdata/arguments.json).

const (
	argMaxTokens       = 2_000
	argInlineString    = 160
	argMaxDepth        = 5
	argMaxEntries      = 20
	argMaxOutline      = 100
	argMaxPathChars    = 160
	argOmittedBySize   = "... [additional argument fields omitted by size limit]"
	argPreviewsHeading = "Large string previews (size-limited):"
)

// jsonValue is a JSON value with its object members in JavaScript's
// order (integer keys first, ascending, then as written).
type jsonValue struct {
	kind  byte // 'o' object, 'a' array, 's' string, 'p' other
	keys  []string
	vals  []*jsonValue
	str   string
	plain string
}

func decodeValue(dec *json.Decoder) (*jsonValue, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		v := &jsonValue{kind: 'a'}
		if t == '{' {
			v.kind = 'o'
		}
		for dec.More() {
			if v.kind == 'o' {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := k.(string)
				e, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				if i := slices.Index(v.keys, key); i >= 0 { // a repeated key keeps its place, JSON.parse's last value
					v.vals[i] = e
					continue
				}
				v.keys, v.vals = append(v.keys, key), append(v.vals, e)
				continue
			}
			e, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			v.vals = append(v.vals, e)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		if v.kind == 'o' {
			jsKeyOrder(v)
		}
		return v, nil
	case string:
		return &jsonValue{kind: 's', str: t}, nil
	case json.Number:
		return &jsonValue{kind: 'p', plain: jsNumber(t)}, nil
	case bool:
		return &jsonValue{kind: 'p', plain: strconv.FormatBool(t)}, nil
	default:
		return &jsonValue{kind: 'p', plain: "null"}, nil
	}
}

// jsNumber is String(number) for the usual numbers (-0 as formatPrimitive
// writes it).
func jsNumber(n json.Number) string {
	f, err := n.Float64()
	if err != nil {
		return n.String()
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		if f == 0 && math.Signbit(f) {
			return "-0" // formatPrimitive's
		}
		if f == 0 {
			return "0"
		}
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

var arrayIndex = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)

func jsKeyOrder(v *jsonValue) {
	idx := make([]int, len(v.keys))
	for i := range idx {
		idx[i] = i
	}
	num := func(k string) (uint64, bool) {
		if !arrayIndex.MatchString(k) {
			return 0, false
		}
		n, err := strconv.ParseUint(k, 10, 64)
		return n, err == nil && n < 1<<32-1
	}
	sort.SliceStable(idx, func(a, b int) bool {
		na, oka := num(v.keys[idx[a]])
		nb, okb := num(v.keys[idx[b]])
		switch {
		case oka && okb:
			return na < nb
		default:
			return oka && !okb
		}
	})
	keys, vals := make([]string, len(idx)), make([]*jsonValue, len(idx))
	for i, j := range idx {
		keys[i], vals[i] = v.keys[j], v.vals[j]
	}
	v.keys, v.vals = keys, vals
}

func jsLen(s string) int { return len(utf16.Encode([]rune(s))) }

// jsString is JSON.stringify(s): Go's encoding but for U+2028 and U+2029,
// which JavaScript leaves as they are.
func jsString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	out := strings.TrimSuffix(b.String(), "\n")
	if !strings.ContainsAny(s, "\u2028\u2029") {
		return out
	}
	var r strings.Builder
	for i := 0; i < len(out); i++ {
		if out[i] == '\\' && i+1 < len(out) {
			if esc := out[i : i+min(6, len(out)-i)]; esc == `\u2028` || esc == `\u2029` {
				r.WriteString(map[string]string{`\u2028`: "\u2028", `\u2029`: "\u2029"}[esc])
				i += 5
				continue
			}
			r.WriteString(out[i : i+2]) // an escape, whole
			i++
			continue
		}
		r.WriteByte(out[i])
	}
	return r.String()
}

func fitsArgs(text string) bool { return processors.EstimateTokens(text) <= argMaxTokens }

// toolArguments renders a call's arguments.
func toolArguments(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "[arguments unavailable]"
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return string(raw)
	}
	if v.kind == 's' || v.kind == 'p' {
		if v.kind == 'p' || jsLen(v.str) <= argInlineString {
			text := v.plain
			if v.kind == 's' {
				text = jsString(v.str)
			}
			if fitsArgs(text) {
				return text
			}
			return "…"
		}
		summary := fmt.Sprintf("<string, %d characters; preview size-limited>", jsLen(v.str))
		if r := appendArgs(summary, argPreview("preview", v.str, summary)); r != "" {
			return r
		}
		return summary
	}

	type entry struct {
		text  string
		depth int
		order int
	}
	type pending struct {
		path  string
		v     *jsonValue
		depth int
	}
	type preview struct{ path, value string }
	var (
		outline  []entry
		previews []preview
		queue    = []pending{{v: v}}
		count    int
		order    int
		limited  bool
	)
	add := func(text string, depth int) {
		outline = append(outline, entry{text, depth, order})
		order++
	}
	for len(queue) > 0 && count < argMaxOutline {
		cur := queue[0]
		queue = queue[1:]
		isArray := cur.v.kind == 'a'
		n := len(cur.v.vals)
		more := n > argMaxEntries
		if n == 0 {
			kind := "object"
			if isArray {
				kind = "array"
			}
			add(orDefault(cur.path, "arguments")+": [empty "+kind+"]", cur.depth)
			count++
			continue
		}
		if more {
			what := "fields"
			if isArray {
				what = "items"
			}
			add(orDefault(cur.path, what)+": ... [additional entries omitted]", cur.depth)
			count++
			n = argMaxEntries
		}
		for i := 0; i < n; i++ {
			if count >= argMaxOutline {
				limited = true
				break
			}
			var path string
			if isArray {
				path = truncatePath(cur.path + "[" + strconv.Itoa(i) + "]")
			} else {
				seg := cur.v.keys[i]
				if !identifier.MatchString(seg) {
					seg = "[" + jsString(seg) + "]"
				}
				if cur.path != "" {
					seg = cur.path + "." + seg
				}
				path = truncatePath(seg)
			}
			count++
			e := cur.v.vals[i]
			switch {
			case e.kind == 's' && jsLen(e.str) > argInlineString:
				add(fmt.Sprintf("%s: <string, %d characters; preview size-limited>", path, jsLen(e.str)), cur.depth)
				previews = append(previews, preview{path, e.str})
			case e.kind == 's':
				add(path+": "+jsString(e.str), cur.depth)
			case e.kind == 'p':
				add(path+": "+e.plain, cur.depth)
			default:
				summary := "<object>"
				if e.kind == 'a' {
					summary = fmt.Sprintf("<array, %d %s>", len(e.vals), map[bool]string{true: "item", false: "items"}[len(e.vals) == 1])
				}
				if cur.depth >= argMaxDepth {
					add(path+": "+summary+" [max depth reached]", cur.depth)
					continue
				}
				add(path+": "+summary, cur.depth)
				queue = append(queue, pending{path, e, cur.depth + 1})
			}
		}
	}
	if len(queue) > 0 || limited {
		add("... [additional nested entries omitted by structure limit]", math.MaxInt)
	}

	join := func(es []entry, marker string) string {
		es = slices.Clone(es)
		sort.SliceStable(es, func(a, b int) bool { return es[a].order < es[b].order })
		var lines []string
		for _, e := range es {
			lines = append(lines, e.text)
		}
		if marker != "" {
			lines = append(lines, marker)
		}
		return strings.Join(lines, "\n")
	}
	rendered := join(outline, "")
	if !fitsArgs(rendered) {
		cands := slices.Clone(outline)
		sort.SliceStable(cands, func(a, b int) bool {
			x, y := cands[a], cands[b]
			if x.depth != y.depth {
				return x.depth < y.depth
			}
			if d := processors.EstimateTokens(x.text) - processors.EstimateTokens(y.text); d != 0 {
				return d < 0
			}
			if d := jsLen(x.text) - jsLen(y.text); d != 0 {
				return d < 0
			}
			return x.order < y.order
		})
		var sel []entry
		for _, c := range cands {
			if fitsArgs(join(append(slices.Clone(sel), c), argOmittedBySize)) {
				sel = append(sel, c)
			}
		}
		rendered = join(sel, argOmittedBySize)
		if !fitsArgs(rendered) {
			rendered = argOmittedBySize
		}
	}
	if len(previews) == 0 {
		return rendered
	}
	out := appendArgs(rendered, argPreviewsHeading)
	if out == "" {
		return rendered
	}
	shown, omitted := 0, 0
	for i, pv := range previews {
		remaining := len(previews) - i
		budget := processors.EstimateTokens(out) + max(0, argMaxTokens-processors.EstimateTokens(out))/remaining
		p := argPreviewWithin(pv.path, pv.value, out, budget)
		next := ""
		if p != "" {
			next = appendArgs(out, p)
		}
		if next == "" {
			omitted++
			continue
		}
		out = next
		shown++
	}
	if shown == 0 {
		return rendered
	}
	if omitted > 0 {
		word := "previews"
		if omitted == 1 {
			word = "preview"
		}
		if next := appendArgs(out, fmt.Sprintf("... [%d large string %s omitted]", omitted, word)); next != "" {
			out = next
		}
	}
	return out
}

var identifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// appendArgs is appendWithinBudget ("" when it does not fit).
func appendArgs(base, addition string) string {
	if addition == "" {
		return ""
	}
	c := addition
	if base != "" {
		c = base + "\n" + addition
	}
	if !fitsArgs(c) {
		return ""
	}
	return c
}

// argPreview is formatPreview within the whole budget.
func argPreview(path, value, prefix string) string {
	return argPreviewWithin(path, value, prefix, argMaxTokens)
}

// argPreviewWithin is formatPreview: the longest start of value that,
// shown as "  | " lines after path, fits maxTokens after prefix.
func argPreviewWithin(path, value, prefix string, maxTokens int) string {
	u := utf16.Encode([]rune(value))
	render := func(n int) string {
		if n > 0 && n < len(u) && u[n-1] >= 0xd800 && u[n-1] <= 0xdbff {
			n--
		}
		visible := string(utf16.Decode(u[:n]))
		lines := strings.Split(visible, "\n")
		for i, l := range lines {
			lines[i] = "  | " + l
		}
		s := path + ":\n" + strings.Join(lines, "\n")
		if omitted := len(u) - n; omitted > 0 {
			s += fmt.Sprintf("\n  | ... [%d characters omitted]", omitted)
		}
		return s
	}
	best := ""
	lo, hi := 0, len(u)
	for lo <= hi {
		mid := (lo + hi) / 2
		c := render(mid)
		full := c
		if prefix != "" {
			full = prefix + "\n" + c
		}
		if processors.EstimateTokens(full) <= maxTokens {
			best, lo = c, mid+1
		} else {
			hi = mid - 1
		}
	}
	return best
}

// truncatePath is Mastra's: a path over 160 UTF-16 units keeps its first
// 50 and last 60, with the count and an FNV-1a digest of the rest.
func truncatePath(path string) string {
	u := utf16.Encode([]rune(path))
	if len(u) <= argMaxPathChars {
		return path
	}
	head := 50
	if c := u[head-1]; c >= 0xd800 && c <= 0xdbff {
		head--
	}
	start := len(u) - 60
	if c := u[start]; c >= 0xdc00 && c <= 0xdfff {
		start++
	}
	h := uint32(0x811c9dc5)
	for _, c := range u {
		h = (h ^ uint32(c)) * 0x01000193
	}
	return fmt.Sprintf("%s…[%d chars; %08x]…%s", string(utf16.Decode(u[:head])), len(u)-110, h, string(utf16.Decode(u[start:])))
}
