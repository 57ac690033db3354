package compat

import "testing"

func TestNormalize(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"ids numbered by first appearance",
			`{"runId":"6a2d0e1c-434e-49e5-acbb-12dd2c0c32ef","m":"7651caf8-2a44-4331-b2a8-1bb3594b9aac","r":"6a2d0e1c-434e-49e5-acbb-12dd2c0c32ef"}`,
			`{"runId":"<id1>","m":"<id2>","r":"<id1>"}`},
		{"ids inside text", `"HTTP error! run 6a2d0e1c-434e-49e5-acbb-12dd2c0c32ef gone"`, `"HTTP error! run <id1> gone"`},
		{"times under *At keys", `{"startedAt":1796010082800,"createdAt":"2026-11-30T03:41:22.624Z","endedAt": 17.5}`,
			`{"startedAt":"<time>","createdAt":"<time>","endedAt": "<time>"}`},
		{"ISO strings anywhere", `{"x":["2026-11-30T03:41:22.624Z"]}`, `{"x":["<time>"]}`},
		{"the epoch stays", `{"timestamp":"1970-01-01T00:00:00.000Z"}`, `{"timestamp":"1970-01-01T00:00:00.000Z"}`},
		{"a snapshot's timestamp goes", `{"timestamp":1796001234567,"n":1}`, `{"timestamp":"<time>","n":1}`},
		{"other keys and numbers stay", `{"at":5,"At":6,"format":2,"sum":5,"Xat":1}`, `{"at":5,"At":6,"format":2,"sum":5,"Xat":1}`},
		{"key order stays", `{"b":1,"a":2}`, `{"b":1,"a":2}`},
		{"upper-case hex is not an id", `"6A2D0E1C-434E-49E5-ACBB-12DD2C0C32EF"`, `"6A2D0E1C-434E-49E5-ACBB-12DD2C0C32EF"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := normalize(c.in); got != c.want {
				t.Errorf("normalize(%s)\n got %s\nwant %s", c.in, got, c.want)
			}
		})
	}
}
