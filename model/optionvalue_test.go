package model_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/gomastra/mastra/model"
)

func TestPositiveInt(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want int
		ok   bool
	}{
		{256, 256, true}, {int32(3), 3, true}, {int64(1), 1, true}, {float32(8), 8, true}, {768.0, 768, true},
		{json.Number("1536"), 1536, true}, {json.Number("1e3"), 1000, true}, {math.MaxInt32, math.MaxInt32, true},
		{0, 0, false}, {-4, 0, false}, {2.5, 0, false}, {json.Number("2.5"), 0, false}, {json.Number("x"), 0, false},
		{int64(math.MaxInt32) + 1, 0, false}, {math.NaN(), 0, false}, {"256", 0, false}, {nil, 0, false}, {uint(3), 0, false},
	} {
		if n, ok := model.PositiveInt(tc.v); n != tc.want || ok != tc.ok {
			t.Errorf("PositiveInt(%#v) = %d, %v; want %d, %v", tc.v, n, ok, tc.want, tc.ok)
		}
	}
}
