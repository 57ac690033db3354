package wire

import (
	"bytes"
	"encoding/json"
	"errors"
)

// errNotArray is EachElement's error for JSON that is not an array.
var errNotArray = errors.New("wire: not a JSON array")

// EachElement calls f with the index and the JSON of each element of the
// JSON array raw, in order, until f returns false. Unlike decoding the
// whole array first, it holds one element at a time, so a caller that
// stops early (at the first MaxIssues wrong elements) spends memory on
// those elements only. The error is for raw that is not a valid array.
func EachElement(raw []byte, f func(i int, elem json.RawMessage) bool) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return errNotArray
	}
	for i := 0; dec.More(); i++ {
		var elem json.RawMessage
		if err := dec.Decode(&elem); err != nil {
			return err
		}
		if !f(i, elem) {
			return nil
		}
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	return nil
}

// errNotObject is EachMember's error for JSON that is not an object.
var errNotObject = errors.New("wire: not a JSON object")

// EachMember calls f with the key and the JSON of each member of the
// JSON object raw, in the order written, until f returns false; it holds
// one member at a time (see EachElement). The error is for raw that is
// not a valid object.
func EachMember(raw []byte, f func(key string, val json.RawMessage) bool) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return errNotObject
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return err
		}
		if !f(tok.(string), val) {
			return nil
		}
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	return nil
}
