// Package uuid makes the UUIDs runs, messages and calls are named with:
// random ones (version 4), as Mastra's crypto.randomUUID() does, and
// ones derived from names (version 5), for records that must keep the
// same id however often they are written.
package uuid

import (
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"strings"
)

// New returns a random UUID in its canonical text form.
func New() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return format(b, 4)
}

// Derived returns the UUID (version 5, SHA-1) named by parts: the same
// parts always give the same UUID, different ones different UUIDs. A
// message saved again after a crash keeps its id this way, so the save
// replaces it instead of adding a copy.
func Derived(parts ...string) string {
	h := sha1.Sum([]byte("gomastra\x00" + strings.Join(parts, "\x00")))
	var b [16]byte
	copy(b[:], h[:16])
	return format(b, 5)
}

func format(b [16]byte, version byte) string {
	b[6] = b[6]&0x0f | version<<4
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
