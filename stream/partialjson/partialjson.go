package partialjson

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// State says how a partial JSON text was parsed. Its values are the AI
// SDK's parsePartialJson state strings.
type State string

const (
	// UndefinedInput: there is no text yet (a Parser before its first
	// Append).
	UndefinedInput State = "undefined-input"
	// SuccessfulParse: the text is complete JSON and parsed as it is.
	SuccessfulParse State = "successful-parse"
	// RepairedParse: the text is incomplete JSON that parsed once repaired.
	RepairedParse State = "repaired-parse"
	// FailedParse: neither the text nor its repair is JSON.
	FailedParse State = "failed-parse"
)

// Parse is the one-shot form, the AI SDK's parsePartialJson(text): it
// decodes text if it is complete JSON (SuccessfulParse), else decodes the
// repaired text (RepairedParse), else returns nil and FailedParse. As in
// JavaScript, the empty text is FailedParse, not UndefinedInput.
//
// Parse(text) is equivalent to a fresh Parser given text in one Append.
func Parse(text string) (value any, state State) {
	var p Parser
	p.Append(text)
	return p.Value()
}

// Repair returns the text repaired the way the AI SDK's fixJson does it
// and the state parsePartialJson would report for text, without decoding.
func Repair(text string) (repaired string, state State) {
	var p Parser
	p.Append(text)
	b, st := p.Repaired()
	return string(b), st
}

// Parser accumulates the argument deltas of one tool call and parses the
// text received so far, incrementally. See the package documentation for
// the cost model.
//
// The zero value is ready to use. A Parser is not safe for concurrent use.
type Parser struct {
	buf     []byte // the text received so far
	started bool   // Append has been called

	// Repair scanner (fixJson) state.
	fix          []uint8
	lastValid    int // index of the last byte of the repairable prefix, -1 if none
	literalStart int

	// Strict validator state: cur after the last byte; snap after the byte
	// at lastValid (the state the repaired text's closers are fed to).
	cont []byte
	cur  vstate
	snap vstate

	// rep holds the last repaired text; its first repN bytes equal buf's.
	rep  []byte
	repN int
	tmp  []byte // closers scratch
}

// Reset empties the Parser for a new tool call, keeping its buffers.
func (p *Parser) Reset() {
	*p = Parser{
		buf:  p.buf[:0],
		fix:  p.fix[:0],
		cont: p.cont[:0],
		rep:  p.rep[:0],
		tmp:  p.tmp[:0],
	}
}

func (p *Parser) start() {
	p.started = true
	p.fix = append(p.fix[:0], fRoot)
	p.lastValid = -1
	p.cur = vstate{mode: mValue}
	p.snap = p.cur
}

// Append adds the next delta of the text. It costs O(len(delta)).
func (p *Parser) Append(delta string) {
	if !p.started {
		p.start()
	}
	i := len(p.buf)
	p.buf = append(p.buf, delta...)
	for n := len(p.buf); i < n; i++ {
		// Fast paths for the runs that make up most of a long argument.
		// They do in bulk exactly what the two machines do byte by byte.
		if j := p.fastRun(i, n); j > i {
			i = j - 1
			continue
		}
		lv := p.lastValid
		p.fixStep(i)
		if p.cur.mode != mError {
			p.cont = step(&p.cur, p.cont, p.buf[i])
		}
		if p.lastValid != lv {
			p.snap = p.cur
		}
	}
}

func plain(c byte) bool { return c != '"' && c != '\\' && c >= 0x20 }

// simpleEscape reports whether c completes a two-byte escape.
func simpleEscape(c byte) bool {
	switch c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return true
	}
	return false
}

// fastRun consumes, from buf[i:n], a run of bytes that leaves both
// machines in the state they are in, and returns where the run ends (i if
// there is none):
//
//   - in a string value, plain bytes and two-byte escapes: each moves the
//     cut point to itself and nothing else changes;
//   - in an object key, plain bytes: nothing changes at all;
//   - in a number's integer, fraction or exponent digits, more digits: each
//     moves the cut point.
func (p *Parser) fastRun(i, n int) int {
	buf := p.buf[:n]
	top := p.fix[len(p.fix)-1]
	switch p.cur.mode {
	case mString:
		j := i
		switch top {
		case fString:
			for j < n {
				c := buf[j]
				if plain(c) {
					j++
				} else if c == '\\' && j+1 < n && simpleEscape(buf[j+1]) {
					j += 2
				} else {
					break
				}
			}
			if j > i {
				p.lastValid = j - 1
				p.snap = p.cur
			}
		case fObjKey:
			for j < n && plain(buf[j]) {
				j++
			}
		}
		return j
	case mInt, mFrac, mExpDigits:
		if top != fNumber {
			return i
		}
		j := i
		for j < n && isDigit(buf[j]) {
			j++
		}
		if j > i {
			p.lastValid = j - 1
			p.snap = p.cur
		}
		return j
	}
	return i
}

// Text returns the text received so far (a copy).
func (p *Parser) Text() string { return string(p.buf) }

// Len returns the number of bytes received so far.
func (p *Parser) Len() int { return len(p.buf) }

// cut returns the length of the repaired text's prefix of the input: the
// text up to fixJson's last valid index, less a trailing UTF-8 sequence
// that a delta boundary split (JavaScript, which sees decoded characters,
// never has one).
func (p *Parser) cut() int {
	v := p.lastValid + 1
	if v == len(p.buf) && p.snap.mode == mString {
		v -= incompleteUTF8(p.buf[:v])
	}
	return v
}

// State returns what Value would report, without building or decoding
// anything. It costs O(depth).
func (p *Parser) State() State {
	if !p.started {
		return UndefinedInput
	}
	if p.cur.mode != mError && p.cur.complete() {
		return SuccessfulParse
	}
	p.tmp = p.appendClosers(p.tmp[:0])
	return p.repairState(p.tmp)
}

// repairState feeds the closers to the strict validator's state at the cut
// point and reports whether that completes a JSON text.
func (p *Parser) repairState(closers []byte) State {
	v := p.snap
	if v.mode == mError {
		return FailedParse
	}
	// The live part of the container stack has not changed since the
	// snapshot: every byte that opens or closes a container moves the cut
	// point. The capacity limit makes a (never expected) push copy.
	cont := p.cont[:v.depth:v.depth]
	for _, c := range closers {
		cont = step(&v, cont, c)
		if v.mode == mError {
			return FailedParse
		}
	}
	if v.complete() {
		return RepairedParse
	}
	return FailedParse
}

// Repaired returns the text repaired as the AI SDK's fixJson repairs it
// (the valid prefix plus the closers of everything still open) and the
// state Value would report. The repaired text is returned even when the
// state is SuccessfulParse (it is then the text without trailing
// whitespace) or FailedParse.
//
// The returned slice aliases the Parser's buffer: it must not be modified
// and is valid only until the next call to Append, Reset, Repaired or
// Value. Copy it (string(b)) to keep it. This is what makes Repaired
// cheap: the prefix is copied into that buffer once, as it grows, so a
// call costs O(bytes appended since the last call + depth).
func (p *Parser) Repaired() ([]byte, State) {
	if !p.started {
		return nil, UndefinedInput
	}
	v := p.cut()
	if p.repN > v {
		p.repN = v
	}
	p.rep = append(p.rep[:p.repN], p.buf[p.repN:v]...)
	p.repN = v
	p.rep = p.appendClosers(p.rep)
	if p.cur.mode != mError && p.cur.complete() {
		return p.rep, SuccessfulParse
	}
	return p.rep, p.repairState(p.rep[v:])
}

// Value decodes the text received so far with parsePartialJson's
// semantics: the text itself when it is complete JSON, else its repair.
// Objects decode to map[string]any, arrays to []any, numbers to float64,
// as encoding/json does. Value costs O(n): callers that only need the
// state or the repaired text should call State or Repaired.
func (p *Parser) Value() (any, State) {
	if !p.started {
		return nil, UndefinedInput
	}
	st := p.State()
	var text []byte
	switch st {
	case SuccessfulParse:
		text = p.buf
	case RepairedParse:
		text, _ = p.Repaired()
	default:
		return nil, st
	}
	v, err := decode(text)
	if err != nil {
		// Only encoding/json's nesting limit gets here: the text is
		// known to be valid JSON.
		return nil, FailedParse
	}
	return v, st
}

// decode decodes valid JSON into any. Numbers beyond float64's range become
// ±Inf, as JSON.parse makes them Infinity (encoding/json refuses them).
func decode(text []byte) (any, error) {
	var v any
	err := json.Unmarshal(text, &v)
	if err == nil {
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	v = nil
	if err2 := dec.Decode(&v); err2 != nil {
		return nil, err
	}
	return numbersToFloat(v), nil
}

func numbersToFloat(v any) any {
	switch t := v.(type) {
	case json.Number:
		f, _ := strconv.ParseFloat(string(t), 64) // ±Inf on overflow, 0 on underflow
		return f
	case map[string]any:
		for k, e := range t {
			t[k] = numbersToFloat(e)
		}
	case []any:
		for k, e := range t {
			t[k] = numbersToFloat(e)
		}
	}
	return v
}
