package wire

import (
	"errors"
	"testing"
)

type failing struct{}

func (failing) MarshalJSON() ([]byte, error) { return nil, errors.New("no") }

func TestObjectWriterModes(t *testing.T) {
	yes := true
	build := func(m Mode) *ObjectWriter {
		return NewObjectWriter([]byte("data: "), m).
			Str("s", "<\xed\xa0\xbd\xff>").StrOpt("none", "").StrOpt("opt", "o").
			Bool("b", false).BoolOpt("nil", nil).BoolOpt("yes", &yes).Int("n", -3).
			Raw("raw", []byte(`{"kept":1.0}`)).
			Value("v", map[string]any{"10": 1.0, "2": "\u2028"}).ValueOpt("undefined", nil).
			MapOpt("nomap", nil).MapOpt("map", map[string]any{})
	}
	for m, want := range map[Mode]string{
		GoMode: `data: {"s":"<\ufffd\ufffd\ufffd\ufffd>","opt":"o","b":false,"yes":true,"n":-3,"raw":{"kept":1.0},` +
			"\"v\":{\"10\":1,\"2\":\"\u2028\"},\"map\":{}}",
		JSMode: "data: {\"s\":\"<\\ud83d\ufffd>\",\"opt\":\"o\",\"b\":false,\"yes\":true,\"n\":-3,\"raw\":{\"kept\":1.0}," +
			"\"v\":{\"2\":\"\u2028\",\"10\":1},\"map\":{}}",
	} {
		w := build(m)
		if got := string(w.Bytes()); w.Err() != nil || got != want {
			t.Errorf("mode %d:\n got  %s %v\n want %s", m, got, w.Err(), want)
		}
	}
}

func TestObjectWriterLeavesOutWhatCannotBeEncoded(t *testing.T) {
	for _, m := range []Mode{GoMode, JSMode} {
		w := NewObjectWriter(nil, m).Value("bad", failing{}).Str("a", "x").Value("worse", failing{})
		if got := string(w.Bytes()); got != `{"a":"x"}` || w.Err() == nil || w.Err().Error() != "json: error calling MarshalJSON for type wire.failing: no" {
			t.Errorf("mode %d: %s %v", m, got, w.Err())
		}
	}
}
