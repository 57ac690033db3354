package netguard_test

import (
	"net/netip"
	"strconv"
	"strings"
	"testing"

	"github.com/gomastra/mastra/internal/netguard"
)

// FuzzHostPolicy feeds random host strings through ParseHost and the
// strict policy and checks, with oracles written independently of the
// package, that nothing blocked gets through:
//
//   - an address that passes is outside every blocked block (the oracle
//     compares numbers, not prefixes);
//   - a name that passes is no address in any reading a resolver might
//     apply (netip, glibc's inet_aton with its 1-4 part forms, with
//     trailing dots removed) and not localhost;
//   - the parsed host is stable: parsing its String form gives it back.
func FuzzHostPolicy(f *testing.F) {
	for _, s := range []string{
		"127.0.0.1", "0x7f.1", "2130706433", "017700000001", "127.1", "127.0.0.1.", "localhost", "LOCALHOST",
		"localhost.", "ｌｏｃａｌｈｏｓｔ", "１２７.０.０.１", "127。0。0。1", "%31%32%37.0.0.1", "[::1]",
		"[::ffff:127.0.0.1]", "[::127.0.0.1]", "[64:ff9b::7f00:1]", "[2002:7f00:1::]", "[2001::1]", "[fec0::1]",
		"[fe80::1%25eth0]", "0", "0x", "1.2.3.0x", "example.com", "169.254.169.254", "0251.0376.0251.0376",
		"[::]", "100.64.0.1", "a.localhost", "8.8.8.8", "93.184.216.34", "[2606:4700::1]", "xn--nxasmq6b.com",
		"0x7f.0.0.1.", "127.0.0.1..", "7f000001", "0x7f000001.", "1e2.1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := netguard.ParseHost(s)
		if err != nil {
			return
		}
		again, err := netguard.ParseHost(h.String())
		if err != nil || again != h {
			t.Fatalf("ParseHost(%q) = %+v; its form %q parses to %+v (%v)", s, h, h.String(), again, err)
		}
		blocked := netguard.Policy{}.CheckHost(h, 80) != nil
		if h.IsIP() {
			if want := oracleBlocked(h.Addr); blocked != want {
				t.Fatalf("ParseHost(%q) = %s: policy blocked %v, oracle %v", s, h, blocked, want)
			}
			return
		}
		if blocked {
			return
		}
		name := strings.TrimRight(h.Name, ".")
		if name == "localhost" || strings.HasSuffix(name, ".localhost") {
			t.Fatalf("ParseHost(%q) = name %q passed the policy", s, h.Name)
		}
		if a, err := netip.ParseAddr(name); err == nil {
			t.Fatalf("ParseHost(%q) = name %q, which is the address %s", s, h.Name, a)
		}
		if a, ok := inetAton(name); ok {
			t.Fatalf("ParseHost(%q) = name %q, which inet_aton reads as %s", s, h.Name, a)
		}
	})
}

// oracleBlocked restates the blocked blocks as number ranges.
func oracleBlocked(a netip.Addr) bool {
	if a.Is4() {
		b := a.As4()
		v := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
		in := func(first string, bits int) bool {
			fb := netip.MustParseAddr(first).As4()
			f := uint32(fb[0])<<24 | uint32(fb[1])<<16 | uint32(fb[2])<<8 | uint32(fb[3])
			return v>>(32-bits) == f>>(32-bits)
		}
		return in("0.0.0.0", 8) || in("10.0.0.0", 8) || in("100.64.0.0", 10) || in("127.0.0.0", 8) ||
			in("169.254.0.0", 16) || in("172.16.0.0", 12) || in("192.0.0.0", 24) || in("192.0.2.0", 24) ||
			in("192.88.99.0", 24) || in("192.168.0.0", 16) || in("198.18.0.0", 15) || in("198.51.100.0", 24) ||
			in("203.0.113.0", 24) || v >= 224<<24
	}
	b := a.As16()
	first := uint16(b[0])<<8 | uint16(b[1])
	second := uint16(b[2])<<8 | uint16(b[3])
	if first < 0x2000 || first > 0x3fff {
		return true // outside global unicast: every other range lies here
	}
	switch {
	case first == 0x2001 && second < 0x200: // 2001::/23
		return true
	case first == 0x2001 && second == 0x0db8, first == 0x2002:
		return true
	case first == 0x3fff && second < 0x1000: // 3fff::/20
		return true
	}
	return false
}

// inetAton is glibc's inet_aton: 1 to 4 parts, each strtoul with base 0.
func inetAton(s string) (netip.Addr, bool) {
	parts := strings.Split(s, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var nums []uint64
	for _, p := range parts {
		base := 10
		switch {
		case strings.HasPrefix(strings.ToLower(p), "0x"):
			base, p = 16, p[2:]
		case len(p) > 1 && p[0] == '0':
			base, p = 8, p[1:]
		}
		if p == "" && base != 16 {
			return netip.Addr{}, false
		}
		if p == "" {
			p = "0"
		}
		if strings.ContainsAny(p, "+-_") {
			return netip.Addr{}, false
		}
		n, err := strconv.ParseUint(p, base, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		nums = append(nums, n)
	}
	limits := []uint64{0xffffffff, 0xffffff, 0xffff, 0xff}
	v := uint64(0)
	for i, n := range nums {
		last := i == len(nums)-1
		if !last && n > 0xff || last && n > limits[len(nums)-1] {
			return netip.Addr{}, false
		}
		if last {
			v |= n
		} else {
			v |= n << (24 - 8*i)
		}
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}
