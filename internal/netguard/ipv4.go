package netguard

import (
	"errors"
	"net/netip"
	"strings"
)

// endsInNumber is the WHATWG URL standard's "ends in a number" check: after
// dropping one trailing empty label, the last label is all decimal digits
// or a valid IPv4 number ("0x1f", "0x", "017"). Such a host is an IPv4
// address or invalid, never a domain name.
func endsInNumber(s string) bool {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" {
		if len(parts) == 1 {
			return false
		}
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, ok := parseIPv4Number(last)
	return ok
}

// parseIPv4 is the WHATWG URL standard's IPv4 parser (inet_aton
// notation): up to four dot-separated numbers, one trailing dot allowed;
// every number but the last is one byte, the last fills the remaining
// bytes ("127.1" is 127.0.0.1, "2130706433" is 127.0.0.1).
func parseIPv4(s string) (netip.Addr, error) {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return netip.Addr{}, errors.New("IPv4 address with more than four parts")
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := parseIPv4Number(p)
		if !ok {
			return netip.Addr{}, errors.New("IPv4 address with a part that is not a number")
		}
		nums[i] = n
	}
	last := len(nums) - 1
	for _, n := range nums[:last] {
		if n > 255 {
			return netip.Addr{}, errors.New("IPv4 address part out of range")
		}
	}
	if nums[last] >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, errors.New("IPv4 address part out of range")
	}
	v := nums[last]
	for i, n := range nums[:last] {
		v += n << (8 * (3 - i))
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), nil
}

// ipv4NumberCap is above every valid part (2^32 - 1); larger values are
// clamped to it so that long digit strings cannot overflow.
const ipv4NumberCap = 1 << 33

// parseIPv4Number parses one part: "0x"/"0X" prefix hex (empty digits
// mean 0), a leading "0" octal, otherwise decimal. The empty string and
// stray characters are not numbers.
func parseIPv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := uint64(10)
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		base, s = 16, s[2:]
	case len(s) >= 2 && s[0] == '0':
		base, s = 8, s[1:]
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		d, ok := digitValue(s[i])
		if !ok || d >= base {
			return 0, false
		}
		v = min(v*base+d, ipv4NumberCap)
	}
	return v, true
}

func digitValue(c byte) (uint64, bool) {
	switch {
	case '0' <= c && c <= '9':
		return uint64(c - '0'), true
	case 'a' <= c && c <= 'f':
		return uint64(c-'a') + 10, true
	case 'A' <= c && c <= 'F':
		return uint64(c-'A') + 10, true
	}
	return 0, false
}
