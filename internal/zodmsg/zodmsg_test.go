package zodmsg

import "testing"

func TestTypeOfAndExpected(t *testing.T) {
	for raw, want := range map[string]string{"": "undefined", "  ": "undefined", `"x"`: "string", " {}": "object", "[1]": "array",
		"true": "boolean", "false": "boolean", "null": "null", "-1.5": "number", "0": "number"} {
		if got := TypeOf([]byte(raw)); got != want {
			t.Errorf("TypeOf(%q) = %q, want %q", raw, got, want)
		}
	}
	if got := Expected("string", []byte("5")); got != "Invalid input: expected string, received number" {
		t.Errorf("Expected: %q", got)
	}
}
