package schema

import (
	"encoding/base64"
	"encoding/json"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/gomastra/mastra/internal/jsjson"
)

// received names a value's type as Zod's parsedType does.
func received(v any, present bool) string {
	if !present {
		return "undefined"
	}
	switch jsonType(v) {
	case tNull:
		return "null"
	case tBoolean:
		return "boolean"
	case tString:
		return "string"
	case tObject:
		return "object"
	case tArray:
		return "array"
	case tNumber:
		return "number"
	}
	return "object"
}

// typeMessage words a type mismatch. A single expected type (null aside)
// gives Zod's invalid_type text; several are a union, "Invalid input".
func typeMessage(types uint8, v any, present bool) string {
	var expected string
	switch types &^ tNull {
	case 0:
		expected = "null"
	case tObject:
		expected = "object"
	case tArray:
		expected = "array"
	case tString:
		expected = "string"
	case tBoolean:
		expected = "boolean"
	case tNumber, tInteger, tNumber | tInteger:
		expected = "number"
	default:
		return "Invalid input"
	}
	return "Invalid input: expected " + expected + ", received " + received(v, present)
}

func enumMessage(values []any) string {
	if len(values) == 1 {
		return "Invalid input: expected " + stringifyPrimitive(values[0])
	}
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = stringifyPrimitive(v)
	}
	return "Invalid option: expected one of " + strings.Join(parts, "|")
}

func stringifyPrimitive(v any) string {
	switch t := v.(type) {
	case string:
		var b strings.Builder
		jsjson.WriteString(&b, t)
		return b.String()
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(t)
	}
	if f, ok := toFloat(v); ok {
		return formatNumber(f)
	}
	s, err := jsjson.Marshal(v, "")
	if err != nil {
		return "?"
	}
	return s
}

func unrecognizedMessage(keys []string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = stringifyPrimitive(k)
	}
	s := "Unrecognized key"
	if len(keys) > 1 {
		s += "s"
	}
	return s + ": " + strings.Join(parts, ", ")
}

// sizeMessage words Zod's too_small/too_big for sized values.
func sizeMessage(big bool, origin string, limit int, exact bool) string {
	unit := map[string]string{"string": "characters", "array": "items", "object": "properties"}[origin]
	adj := ">="
	head := "Too small: expected "
	if big {
		adj, head = "<=", "Too big: expected "
	}
	if exact {
		adj = "exactly "
	}
	return head + origin + " to have " + adj + strconv.Itoa(limit) + " " + unit
}

// boundMessage words Zod's too_small/too_big for numbers.
func boundMessage(big bool, origin string, limit float64, inclusive bool) string {
	if big {
		adj := "<"
		if inclusive {
			adj = "<="
		}
		return "Too big: expected " + origin + " to be " + adj + formatNumber(limit)
	}
	adj := ">"
	if inclusive {
		adj = ">="
	}
	return "Too small: expected " + origin + " to be " + adj + formatNumber(limit)
}

func formatNumber(f float64) string { return jsjson.FormatNumber(f) }

// Zod's own format checks, the ones its toJSONSchema emits as "format".
var (
	emailRe    = regexp.MustCompile(`^[A-Za-z0-9_'+\-\.]*[A-Za-z0-9_+\-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$`)
	uuidRe     = regexp.MustCompile(`^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$`)
	dateRe     = regexp.MustCompile(`^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))$`)
	timeRe     = regexp.MustCompile(`^(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?$`)
	dateTimeRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$`)
	durationRe = regexp.MustCompile(`^P(?:(\d+W)|(?:(?:\d+Y)?(?:\d+M)?(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+(?:[.,]\d+)?S)?)?))$`)
)

// checkFormat validates the string formats Zod validates and returns Zod's
// message on failure. Unknown formats are annotations and always pass.
func checkFormat(format, s string) (string, bool) {
	switch format {
	case "email":
		return "Invalid email address", emailRe.MatchString(s)
	case "uri", "url":
		u, err := url.Parse(s)
		return "Invalid URL", err == nil && u.Scheme != "" && (u.Host != "" || u.Opaque != "")
	case "uuid":
		return "Invalid UUID", uuidRe.MatchString(s)
	case "date-time":
		return "Invalid ISO datetime", dateTimeRe.MatchString(s) && dateRe.MatchString(s[:10])
	case "date":
		return "Invalid ISO date", dateRe.MatchString(s)
	case "time":
		return "Invalid ISO time", timeRe.MatchString(s)
	case "duration":
		return "Invalid ISO duration", s != "P" && durationRe.MatchString(s)
	case "jwt":
		return "Invalid JWT", isJWT(s)
	case "hostname":
		return "Invalid hostname", isHostname(s)
	case "emoji":
		return "Invalid emoji", isEmoji(s)
	case "ipv4":
		a, err := netip.ParseAddr(s)
		return "Invalid IPv4 address", err == nil && a.Is4()
	case "ipv6":
		a, err := netip.ParseAddr(s)
		return "Invalid IPv6 address", err == nil && a.Is6() && a.Zone() == ""
	}
	return "", true
}

// zodFormats are the messages of Zod's string formats, by the "format"
// keyword its toJSONSchema writes.
var zodFormats = map[string]string{
	"email": "Invalid email address", "uri": "Invalid URL", "url": "Invalid URL",
	"uuid": "Invalid UUID", "date-time": "Invalid ISO datetime", "date": "Invalid ISO date",
	"time": "Invalid ISO time", "duration": "Invalid ISO duration",
	"ipv4": "Invalid IPv4 address", "ipv6": "Invalid IPv6 address",
	"cidrv4": "Invalid IPv4 range", "cidrv6": "Invalid IPv6 range",
	"base64": "Invalid base64-encoded string", "base64url": "Invalid base64url-encoded string",
	"e164": "Invalid E.164 number", "jwt": "Invalid JWT", "emoji": "Invalid emoji",
	"cuid": "Invalid cuid", "cuid2": "Invalid cuid2", "ulid": "Invalid ULID",
	"nanoid": "Invalid nanoid", "xid": "Invalid XID", "ksuid": "Invalid KSUID",
	"hostname": "Invalid hostname", "lowercase": "Invalid lowercase", "uppercase": "Invalid uppercase",
}

// zodPatterns are Zod formats written as a bare pattern (no "format").
var zodPatterns = map[string]string{
	`^(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?$`: "Invalid ISO time",
}

// zodFormatMessage returns the single message Zod reports for a failed
// format, when format (with its pattern) is one of Zod's.
func zodFormatMessage(format, pattern string) (string, bool) {
	switch format {
	case "starts_with":
		return `Invalid string: must start with ` + stringifyPrimitive(unescapeRegex(strings.TrimSuffix(strings.TrimPrefix(pattern, "^"), ".*"))), true
	case "ends_with":
		return `Invalid string: must end with ` + stringifyPrimitive(unescapeRegex(strings.TrimSuffix(strings.TrimPrefix(pattern, ".*"), "$"))), true
	case "includes":
		return `Invalid string: must include ` + stringifyPrimitive(unescapeRegex(pattern)), true
	}
	if msg, ok := zodFormats[format]; ok {
		return msg, true
	}
	if format == "" {
		if msg, ok := zodPatterns[pattern]; ok {
			return msg, true
		}
	}
	return "", false
}

// unescapeRegex undoes the escaping of a literal string in a pattern.
func unescapeRegex(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) {
			i++
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// discriminatorMessage is Zod's message for a discriminated union whose
// discriminator matches no option.
func discriminatorMessage(values [][]any) string {
	var parts []string
	for _, vs := range values {
		for _, v := range vs {
			s := stringifyPrimitive(v)
			if str, ok := v.(string); ok {
				s = "'" + str + "'"
			}
			parts = append(parts, s)
		}
	}
	return "Invalid discriminator value. Expected " + strings.Join(parts, " | ")
}

// isJWT is Zod's JWT check: three dot-separated parts whose first is
// base64url JSON with an "alg" and, if it has one, "typ": "JWT".
func isJWT(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 3 || parts[0] == "" {
		return false
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[0], "="))
	if err != nil {
		return false
	}
	var header map[string]any
	if json.Unmarshal(raw, &header) != nil {
		return false
	}
	if typ, ok := header["typ"]; ok && typ != "JWT" {
		return false
	}
	alg, _ := header["alg"].(string)
	return alg != ""
}

// isHostname checks RFC 1123 host names: at most 253 characters, labels of
// 1 to 63 letters, digits and inner hyphens, an optional final dot.
func isHostname(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if s == "" || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// isEmoji approximates Zod's emoji check (Extended_Pictographic and emoji
// components only, at least one pictograph or regional indicator), which
// Go's regexp cannot express.
func isEmoji(s string) bool {
	pictograph := false
	for _, r := range s {
		switch {
		case r >= 0x1F000 && r <= 0x1FAFF, r >= 0x2600 && r <= 0x27BF, r >= 0x2190 && r <= 0x21FF,
			r >= 0x2300 && r <= 0x23FF, r >= 0x2B00 && r <= 0x2BFF, r == 0x00A9, r == 0x00AE,
			r == 0x203C, r == 0x2049, r == 0x2122, r == 0x2139, r >= 0x3030 && r <= 0x303D, r == 0x3297, r == 0x3299:
			pictograph = true
		case r == 0x20E3:
			pictograph = true
		case r == 0x200D, r == 0xFE0F, r >= 0x1F3FB && r <= 0x1F3FF, r >= 0xE0020 && r <= 0xE007F,
			r == '#', r == '*', unicode.IsDigit(r) && r < 0x80:
		default:
			return false
		}
	}
	return pictograph
}
