package model

import (
	"encoding/json"
	"math"
)

// PositiveInt reads a provider option's number (ProviderOptions values
// come from Go code or decoded JSON: int, int32, int64, float32,
// float64 or json.Number) that is a whole number from 1 to
// math.MaxInt32, such as an embedding's dimensions. ok is false for any
// other value or type.
func PositiveInt(v any) (n int, ok bool) {
	var f float64
	switch x := v.(type) {
	case int:
		f = float64(x)
	case int32:
		f = float64(x)
	case int64:
		f = float64(x)
	case float32:
		f = float64(x)
	case float64:
		f = x
	case json.Number:
		var err error
		if f, err = x.Float64(); err != nil {
			return 0, false
		}
	default:
		return 0, false
	}
	if f < 1 || f != math.Trunc(f) || f > math.MaxInt32 {
		return 0, false
	}
	return int(f), true
}
