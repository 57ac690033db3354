package flatjson

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"unsafe"
)

type flat struct {
	B   bool    `json:"b"`
	I   int     `json:"i"`
	I8  int8    `json:"i8"`
	I16 int16   `json:"i16"`
	I32 int32   `json:"i32"`
	I64 int64   `json:"i64"`
	U   uint    `json:"u"`
	U8  uint8   `json:"u8"`
	U16 uint16  `json:"u16"`
	U32 uint32  `json:"u32"`
	U64 uint64  `json:"u64"`
	F32 float32 `json:"f32"`
	F64 float64 `json:"f64"`
	S   string  `json:"s"`
	O   string  `json:"o,omitempty"`
	N   int     `json:"n,omitempty"`
	Raw string
	Ign string `json:"-"`
}

type named int

type withNamed struct {
	N named `json:"n"`
}

type stamp struct{}

func (stamp) MarshalJSON() ([]byte, error) { return []byte(`1`), nil }

func TestForRefusesWhatItCannotMirror(t *testing.T) {
	for name, typ := range map[string]reflect.Type{
		"not a struct": reflect.TypeFor[int](),
		"pointer":      reflect.TypeFor[struct{ P *int }](),
		"slice":        reflect.TypeFor[struct{ S []int }](),
		"embedded":     reflect.TypeFor[struct{ flat }](),
		"string opt": reflect.TypeFor[struct {
			I int `json:"i,string"`
		}](),
		"omitzero": reflect.TypeFor[struct {
			I int `json:"i,omitzero"`
		}](),
		"marshaler": reflect.TypeFor[struct{ S stamp }](),
		"escaped name": reflect.TypeFor[struct {
			I int `json:"a<b"`
		}](),
		"duplicate": reflect.TypeFor[struct {
			X int
			Y int `json:"X"`
		}](),
	} {
		if For(typ) != nil {
			t.Errorf("%s: For accepted %v", name, typ)
		}
	}
	if For(reflect.TypeFor[flat]()) == nil || For(reflect.TypeFor[withNamed]()) == nil {
		t.Error("For refused a flat struct")
	}
}

// TestAgreesWithEncodingJSON decodes and encodes with both and compares;
// a refusal is always allowed, a disagreement never.
func TestAgreesWithEncodingJSON(t *testing.T) {
	inputs := []string{
		`{}`, ` { } `,
		`{"b":true,"i":-5,"i8":127,"i16":-32768,"i32":2147483647,"i64":-9223372036854775808,"u":1,"u8":255,"u16":65535,"u32":4294967295,"u64":18446744073709551615,"f32":1.5,"f64":-2.25e3,"s":"héllo","o":"","n":0,"Raw":"r"}`,
		`{"i8":128}`, `{"i8":-129}`, `{"u8":256}`, `{"u":-1}`, `{"u":-0}`, `{"i":-0}`, `{"i64":9223372036854775808}`,
		`{"u64":18446744073709551616}`, `{"i":1.0}`, `{"i":1e2}`, `{"f32":1e40}`, `{"f64":1e400}`,
		`{"s":"a\"b"}`, `{"s":"\u00e9"}`, `{"s":null}`, `{"b":null}`, `{"I":1}`, `{"i":1,"i":2}`, `{"x":1}`,
		`{"b":"true"}`, `{"i":"1"}`, `{"s":1}`, `{"i":01}`, `{"i":-}`, `{"i":1,}`, `{"i" 1}`, `[]`, `null`, `{"i":1} x`,
		"{\"s\":\"\xff\"}", `{"Ign":"x"}`,
	}
	c := For(reflect.TypeFor[flat]())
	for _, in := range inputs {
		var fast, std flat
		ok := c.Decode([]byte(in), unsafe.Pointer(&fast))
		err := json.Unmarshal([]byte(in), &std)
		if !ok {
			continue
		}
		if err != nil {
			t.Errorf("%s: fast path accepted what encoding/json rejects (%v)", in, err)
			continue
		}
		if fast != std {
			t.Errorf("%s:\nfast %+v\n std %+v", in, fast, std)
		}
	}
}

func TestAppendJSONAgreesWithMarshal(t *testing.T) {
	values := []flat{
		{},
		{B: true, I: -1, I8: math.MinInt8, I16: 7, I32: -7, I64: math.MaxInt64, U: 1, U8: 255, U16: 9, U32: 10, U64: math.MaxUint64, F32: 0.1, F64: 1e20, S: "plain", O: "x", N: 3, Raw: "r", Ign: "never"},
		{F64: 1e21}, {F64: 1e-7}, {F64: math.NaN()}, {F32: float32(math.Inf(1))}, {S: "<b>"}, {S: "é"}, {S: "a\nb"}, {F64: 0.000001}, {F32: 3.4e38},
	}
	c := For(reflect.TypeFor[flat]())
	for _, v := range values {
		got, ok := c.AppendJSON(nil, unsafe.Pointer(&v))
		if !ok {
			continue
		}
		want, err := json.Marshal(v)
		if err != nil {
			t.Errorf("%+v: fast path encoded what encoding/json rejects", v)
			continue
		}
		if string(got) != string(want) {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
	if _, ok := c.AppendJSON(nil, unsafe.Pointer(&values[1])); !ok {
		t.Error("a plain value was refused")
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"i":1,"s":"x"}`, `{"u8":255}`, `{"f64":1.5e3,"b":true}`, `{}`} {
		f.Add([]byte(s))
	}
	c := For(reflect.TypeFor[flat]())
	f.Fuzz(func(t *testing.T, data []byte) {
		var fast, std flat
		if !c.Decode(data, unsafe.Pointer(&fast)) {
			return
		}
		if err := json.Unmarshal(data, &std); err != nil {
			t.Fatalf("%q: accepted, but encoding/json says %v", data, err)
		}
		if fast != std {
			t.Fatalf("%q:\nfast %+v\n std %+v", data, fast, std)
		}
	})
}
