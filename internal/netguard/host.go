package netguard

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// ErrInvalidHost is wrapped by every error of [ParseHost].
var ErrInvalidHost = errors.New("invalid host")

// Host is a parsed URL host: a domain name or an IP address, never both.
type Host struct {
	// Name is the domain in canonical ASCII form (lowercase, IDNA
	// A-labels, a trailing dot kept); empty for an address.
	Name string
	// Addr is the address of an IP host, whatever notation the URL used;
	// the invalid Addr for a name.
	Addr netip.Addr
}

// IsIP reports whether h is an IP address.
func (h Host) IsIP() bool { return h.Addr.IsValid() }

// String returns the host as the WHATWG URL standard serializes it: the
// name, a dotted-quad IPv4 address, or a bracketed, compressed IPv6
// address in hex groups only ("[::ffff:7f00:1]", never a dotted tail).
func (h Host) String() string {
	switch {
	case !h.IsIP():
		return h.Name
	case h.Addr.Is4():
		return h.Addr.String()
	}
	return "[" + formatIPv6(h.Addr.As16()) + "]"
}

// idnaProfile is the WHATWG URL standard's "domain to ASCII" with
// beStrict false: UTS #46 non-transitional mapping (lowercase, width
// folding, ideographic full stops to ".", ignored code points removed),
// CheckBidi, CheckJoiners, no STD3 or DNS-length rules, no hyphen checks.
var idnaProfile = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.CheckJoiners(true),
	idna.CheckHyphens(false),
	idna.StrictDomainName(false),
	idna.Transitional(false),
	idna.VerifyDNSLength(false),
)

// ParseHost parses the host of an http or https URL (without userinfo or
// port) as the WHATWG URL standard's host parser does, which is how a
// browser or Node.js reads it: "[…]" is an IPv6 address (no zone);
// anything else is percent-decoded, mapped to ASCII with IDNA (so
// "ＬＯＣＡＬＨＯＳＴ", "127。0。0。1" and fullwidth digits become their ASCII
// forms), checked for forbidden code points, and, when its last label is a
// number ("0x7f.1", "2130706433", "017700000001", "127.1", "127.0.0.1."),
// parsed as an IPv4 address in inet_aton notation: 1 to 4 parts, each
// decimal, octal (leading 0) or hex (0x). A numeric host that is not a
// valid address is an error, so no resolver ever sees one. Stricter than
// the standard, a name with an empty label ("a..b", "127.0.0.1..", ".a")
// is an error too: it is no DNS name, and some resolvers would strip the
// dots and read an address.
//
// The error wraps [ErrInvalidHost]. ParseHost never resolves anything.
func ParseHost(s string) (Host, error) {
	if strings.HasPrefix(s, "[") {
		if !strings.HasSuffix(s, "]") || len(s) < 2 {
			return Host{}, hostError(s, "unterminated IPv6 address")
		}
		addr, err := parseIPv6(s[1 : len(s)-1])
		if err != nil {
			return Host{}, hostError(s, err.Error())
		}
		return Host{Addr: addr}, nil
	}
	decoded := percentDecode(s)
	if !utf8.ValidString(decoded) {
		decoded = strings.ToValidUTF8(decoded, "\uFFFD")
	}
	ascii, err := idnaProfile.ToASCII(decoded)
	if err != nil {
		return Host{}, hostError(s, "not a valid domain name")
	}
	if ascii == "" {
		return Host{}, hostError(s, "empty host")
	}
	if i := strings.IndexFunc(ascii, forbiddenDomainRune); i >= 0 {
		return Host{}, hostError(s, fmt.Sprintf("forbidden character %q", ascii[i]))
	}
	if slices.Contains(strings.Split(strings.TrimSuffix(ascii, "."), "."), "") {
		return Host{}, hostError(s, "empty label")
	}
	if endsInNumber(ascii) {
		addr, err := parseIPv4(ascii)
		if err != nil {
			return Host{}, hostError(s, err.Error())
		}
		return Host{Addr: addr}, nil
	}
	return Host{Name: ascii}, nil
}

func hostError(s, why string) error {
	return fmt.Errorf("%w %q: %s", ErrInvalidHost, s, why)
}

// forbiddenDomainRune reports the WHATWG "forbidden domain code points":
// C0 controls, space, DEL and #%/:<>?@[\]^|.
func forbiddenDomainRune(r rune) bool {
	if r <= 0x20 || r == 0x7f {
		return true
	}
	return strings.ContainsRune("#%/:<>?@[\\]^|", r)
}

// percentDecode decodes %XX escapes; a '%' not followed by two hex digits
// is kept as it is (and then refused as a forbidden code point).
func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// parseIPv6 parses the inside of "[…]". Zones are refused: a URL cannot
// carry one.
func parseIPv6(s string) (netip.Addr, error) {
	if strings.Contains(s, "%") {
		return netip.Addr{}, errors.New("IPv6 zones are not allowed")
	}
	addr, err := netip.ParseAddr(s)
	if err != nil || !addr.Is6() {
		return netip.Addr{}, errors.New("not a valid IPv6 address")
	}
	return addr, nil
}

// formatIPv6 writes eight lowercase hex groups, the first longest run of
// two or more zero groups compressed to "::" (RFC 5952 and WHATWG; unlike
// netip.Addr.String, never with a dotted IPv4 tail).
func formatIPv6(b [16]byte) string {
	var groups [8]uint16
	for i := range groups {
		groups[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
	}
	start, length := -1, 1
	for i := 0; i < 8; {
		if groups[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && groups[j] == 0 {
			j++
		}
		if j-i > length {
			start, length = i, j-i
		}
		i = j
	}
	var sb strings.Builder
	for i := 0; i < 8; i++ {
		if i == start {
			sb.WriteString("::")
			i += length - 1
			continue
		}
		if i > 0 && i != start+length {
			sb.WriteByte(':')
		}
		fmt.Fprintf(&sb, "%x", groups[i])
	}
	return sb.String()
}
