package agent

import (
	"strings"
	"testing"

	"github.com/gomastra/mastra/storage"
)

func TestFoldTurns(t *testing.T) {
	msgs := func(roles string) []storage.Message {
		var out []storage.Message
		for i, r := range strings.Fields(roles) {
			out = append(out, storage.Message{ID: string(rune('a' + i)), Role: r})
		}
		return out
	}
	for roles, want := range map[string]string{
		"":                                   "",
		"user":                               "a",
		"user assistant tool assistant user": "a bcd e",
		"assistant user user":                "a b c",
		"system user tool assistant":         "a b cd",
		"user assistant tool assistant tool": "a bcde",
	} {
		var got []string
		for _, turn := range FoldTurns(msgs(roles)) {
			ids := ""
			for _, m := range turn {
				ids += m.ID
			}
			got = append(got, ids)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("FoldTurns(%q) = %q, want %q", roles, got, want)
		}
	}
}
