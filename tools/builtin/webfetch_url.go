package builtin

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/gomastra/mastra/internal/netguard"
)

// errNotHTTP: a URL (valid or not) whose scheme is not http or https.
// errBadURL: an http or https URL that cannot be parsed.
var (
	errNotHTTP = errors.New("not an http or https URL")
	errBadURL  = errors.New("invalid URL")
)

// webURL is an http or https URL parsed and serialized as the WHATWG URL
// standard does (as Mastra's new URL() does): every component
// percent-encoded and normalized, so that String gives what Node.js
// would give and requestURL sends the same bytes.
type webURL struct {
	scheme   string // "http" or "https"
	user     string // percent-encoded
	pass     string // percent-encoded
	host     netguard.Host
	port     int    // -1 when absent or the scheme's default
	path     string // percent-encoded, starts with "/"
	query    string // percent-encoded, with its "?" (empty: none)
	fragment string // percent-encoded, with its "#" (empty: none)
}

// Percent-encode sets of the URL standard (beyond C0 controls, space and
// non-ASCII, which every set has).
const (
	fragmentSet = "\"<>`"
	querySet    = "\"#<>'" // the special-query set
	pathSet     = "\"#<>?`{}"
	userinfoSet = pathSet + "/:;=@[\\]^|"
)

func defaultPort(scheme string) int {
	if scheme == "https" {
		return 443
	}
	return 80
}

// effectivePort is the port connected to.
func (u *webURL) effectivePort() uint16 {
	if u.port >= 0 {
		return uint16(u.port)
	}
	return uint16(defaultPort(u.scheme))
}

// origin is scheme://userinfo@host:port.
func (u *webURL) origin() string {
	var b strings.Builder
	b.WriteString(u.scheme)
	b.WriteString("://")
	if u.user != "" || u.pass != "" {
		b.WriteString(u.user)
		if u.pass != "" {
			b.WriteByte(':')
			b.WriteString(u.pass)
		}
		b.WriteByte('@')
	}
	b.WriteString(u.hostPort())
	return b.String()
}

func (u *webURL) hostPort() string {
	if u.port < 0 {
		return u.host.String()
	}
	return u.host.String() + ":" + strconv.Itoa(u.port)
}

// String is the URL's serialization (Node.js's url.href).
func (u *webURL) String() string { return u.origin() + u.path + u.query + u.fragment }

// requestURL is the URL for net/http: the request target is the path and
// query exactly as serialized (no re-escaping), the fragment is dropped,
// and userinfo becomes Basic credentials as in Node.js.
func (u *webURL) requestURL() *url.URL {
	r := &url.URL{Scheme: u.scheme, Host: u.hostPort(), Opaque: u.path}
	if strings.HasPrefix(u.path, "//") {
		// net/http would read "//x" as an authority; send the absolute form.
		r.Opaque = "//" + u.hostPort() + u.path
	}
	if u.query != "" {
		r.RawQuery = u.query[1:]
		r.ForceQuery = r.RawQuery == ""
	}
	if u.user != "" || u.pass != "" {
		name, pass := unescapeLoose(u.user), unescapeLoose(u.pass)
		if u.pass != "" {
			r.User = url.UserPassword(name, pass)
		} else {
			r.User = url.User(name)
		}
	}
	return r
}

// parseWebURL parses an absolute URL. A URL of another scheme (or none)
// is errNotHTTP; a malformed http or https URL is errBadURL.
func parseWebURL(s string) (*webURL, error) {
	s = cleanURLInput(s)
	scheme, rest, ok := splitScheme(s)
	if !ok || (scheme != "http" && scheme != "https") {
		return nil, errNotHTTP
	}
	return parseAfterScheme(scheme, rest)
}

// parseAfterScheme parses what follows "http:" or "https:": any number of
// slashes (either kind), the authority, the path, query and fragment.
func parseAfterScheme(scheme, rest string) (*webURL, error) {
	rest = strings.TrimLeft(rest, "/\\")
	end := strings.IndexAny(rest, "/\\?#")
	if end < 0 {
		end = len(rest)
	}
	authority, tail := rest[:end], rest[end:]
	u := &webURL{scheme: scheme, port: -1}
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		userinfo := authority[:at]
		authority = authority[at+1:]
		name, pass, _ := strings.Cut(userinfo, ":")
		u.user, u.pass = percentEncode(name, userinfoSet), percentEncode(pass, userinfoSet)
	}
	hostText, portText := splitHostPort(authority)
	if hostText == "" {
		return nil, errBadURL
	}
	if portText != "" {
		digits := strings.TrimLeft(portText, "0")
		if strings.Trim(digits, "0123456789") != "" || len(digits) > 5 {
			return nil, errBadURL
		}
		p, _ := strconv.Atoi("0" + digits)
		if p > 65535 {
			return nil, errBadURL
		}
		if p != defaultPort(scheme) {
			u.port = p
		}
	}
	host, err := netguard.ParseHost(hostText)
	if err != nil {
		return nil, errBadURL
	}
	u.host = host
	if i := strings.IndexByte(tail, '#'); i >= 0 {
		u.fragment = "#" + percentEncode(tail[i+1:], fragmentSet)
		tail = tail[:i]
	}
	if i := strings.IndexByte(tail, '?'); i >= 0 {
		u.query = "?" + percentEncode(tail[i+1:], querySet)
		tail = tail[:i]
	}
	u.path = normalizePath(tail)
	return u, nil
}

// splitHostPort splits at the first ':' outside brackets.
func splitHostPort(s string) (host, port string) {
	inBrackets := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			inBrackets = true
		case ']':
			inBrackets = false
		case ':':
			if !inBrackets {
				return s[:i], s[i+1:]
			}
		}
	}
	return s, ""
}

// normalizePath percent-encodes a path and resolves its "." and ".."
// segments (also written %2e); backslashes are slashes.
func normalizePath(p string) string {
	if p == "" {
		return "/"
	}
	segments := strings.Split(strings.ReplaceAll(p[1:], "\\", "/"), "/")
	out := make([]string, 0, len(segments))
	for i, seg := range segments {
		last := i == len(segments)-1
		switch lower := strings.ToLower(seg); lower {
		case "..", ".%2e", "%2e.", "%2e%2e":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		case ".", "%2e":
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, percentEncode(seg, pathSet))
		}
	}
	return "/" + strings.Join(out, "/")
}

// resolve is new URL(ref, u): a redirect's Location against the current
// URL. A target of another scheme is errNotHTTP.
func (u *webURL) resolve(ref string) (*webURL, error) {
	ref = cleanURLInput(ref)
	if scheme, rest, ok := splitScheme(ref); ok {
		if scheme != u.scheme {
			return parseWebURL(ref)
		}
		if !startsWithTwoSlashes(rest) {
			ref = rest // "http:path" against an http URL is relative
		} else {
			return parseAfterScheme(scheme, rest)
		}
	}
	switch {
	case startsWithTwoSlashes(ref):
		return parseAfterScheme(u.scheme, ref)
	case ref != "" && (ref[0] == '/' || ref[0] == '\\'):
		return parseWebURL(u.origin() + ref)
	case strings.HasPrefix(ref, "?"):
		return parseWebURL(u.origin() + u.path + ref)
	case strings.HasPrefix(ref, "#"):
		return parseWebURL(u.origin() + u.path + u.query + ref)
	case ref == "":
		return parseWebURL(u.origin() + u.path + u.query)
	}
	dir := u.path[:strings.LastIndexByte(u.path, '/')+1]
	return parseWebURL(u.origin() + dir + ref)
}

func startsWithTwoSlashes(s string) bool {
	return len(s) >= 2 && (s[0] == '/' || s[0] == '\\') && (s[1] == '/' || s[1] == '\\')
}

// cleanURLInput drops leading and trailing C0 controls and spaces and
// every tab and newline, as the URL parser does first.
func cleanURLInput(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= 0x20 })
	if strings.ContainsAny(s, "\t\n\r") {
		s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	}
	return s
}

// splitScheme splits "scheme:rest" (scheme lowercased).
func splitScheme(s string) (scheme, rest string, ok bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return strings.ToLower(s[:i]), s[i+1:], true
		default:
			return "", "", false
		}
	}
	return "", "", false
}

// percentEncode escapes the bytes of s that are C0 controls, space, DEL,
// non-ASCII or in set; '%' is kept as written.
func percentEncode(s, set string) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if needsEscape(s[i], set) {
			n++
		}
	}
	if n == 0 {
		return s
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s)+2*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if needsEscape(c, set) {
			b = append(b, '%', hex[c>>4], hex[c&15])
			continue
		}
		b = append(b, c)
	}
	return string(b)
}

func needsEscape(c byte, set string) bool {
	return c <= 0x20 || c >= 0x7f || strings.IndexByte(set, c) >= 0
}

// unescapeLoose decodes %XX escapes, keeping malformed ones as written
// (as decodeURIComponent would fail and Node.js keep the text).
func unescapeLoose(s string) string {
	if v, err := url.PathUnescape(s); err == nil {
		return v
	}
	return s
}
