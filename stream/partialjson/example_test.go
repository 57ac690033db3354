package partialjson_test

import (
	"fmt"

	"github.com/gomastra/mastra/stream/partialjson"
)

func ExampleParse() {
	v, st := partialjson.Parse(`{"city": "Par`)
	fmt.Println(v, st)

	v, st = partialjson.Parse(`{"city": "Paris", "days": 3}`)
	fmt.Println(v, st)

	v, st = partialjson.Parse(`not json`)
	fmt.Println(v, st)
	// Output:
	// map[city:Par] repaired-parse
	// map[city:Paris days:3] successful-parse
	// <nil> failed-parse
}

func ExampleRepair() {
	fixed, st := partialjson.Repair(`{"a": [1, 2, {"b": tr`)
	fmt.Println(fixed, st)
	// Output: {"a": [1, 2, {"b": true}]} repaired-parse
}

func ExampleParser() {
	var p partialjson.Parser
	fmt.Println(p.State())
	for _, delta := range []string{`{"loc`, `ation": "San `, `Francisco", "unit`, `s": ["c", `, `"f"]}`} {
		p.Append(delta)
		repaired, st := p.Repaired()
		fmt.Printf("%-40s %s\n", repaired, st)
	}
	v, st := p.Value()
	fmt.Println(v, st)
	// Output:
	// undefined-input
	// {}                                       repaired-parse
	// {"location": "San "}                     repaired-parse
	// {"location": "San Francisco"}            repaired-parse
	// {"location": "San Francisco", "units": ["c"]} repaired-parse
	// {"location": "San Francisco", "units": ["c", "f"]} successful-parse
	// map[location:San Francisco units:[c f]] successful-parse
}
