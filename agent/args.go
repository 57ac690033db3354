package agent

import (
	"encoding/json"
	"regexp"
	"strings"
)

var (
	specialTokens  = regexp.MustCompile(`<\|[^|]*\|>`)
	bareKey        = regexp.MustCompile(`([{,]\s*)([A-Za-z_$][A-Za-z0-9_$]*)(\s*:)`)
	trailingComma  = regexp.MustCompile(`,(\s*[}\]])`)
	singleQuoted   = regexp.MustCompile(`'((?:[^'\\]|\\.)*)'`)
	bareDateValues = regexp.MustCompile(`(:\s*)(\d{4}-\d{2}-\d{2}(?:T[0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?)(\s*[,}\]])`)
)

// parseArgs parses a tool call's argument text with Mastra's fallback
// chain: as is; without <|…|> special tokens, trimmed; then a repair pass
// (bare property names quoted, single quotes made double, trailing commas
// dropped, bare ISO dates quoted). Empty text is {}. nil means nothing
// parsed: the model is told its arguments were not valid JSON.
func parseArgs(text string) json.RawMessage {
	t := strings.TrimSpace(text)
	if t == "" {
		return json.RawMessage("{}")
	}
	if json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	t = strings.TrimSpace(specialTokens.ReplaceAllString(t, ""))
	if t == "" {
		return json.RawMessage("{}")
	}
	if json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	r := singleQuoted.ReplaceAllStringFunc(t, func(m string) string {
		inner := m[1 : len(m)-1]
		b, _ := json.Marshal(strings.ReplaceAll(inner, `\'`, `'`))
		return string(b)
	})
	r = bareKey.ReplaceAllString(r, `$1"$2"$3`)
	r = trailingComma.ReplaceAllString(r, `$1`)
	r = bareDateValues.ReplaceAllString(r, `$1"$2"$3`)
	if json.Valid([]byte(r)) {
		return json.RawMessage(r)
	}
	return nil
}
