// Package uuid makes the random (version 4) UUIDs runs, messages and
// calls are named with, as Mastra's crypto.randomUUID() does.
package uuid

import (
	"crypto/rand"
	"encoding/hex"
)

// New returns a random UUID in its canonical text form.
func New() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
