package compat

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLoopbackGuard checks the guard every Node process runs under: a
// connection to an address outside 127.0.0.0/8 (TEST-NET-1, by address
// and by name) is refused before any dial, and loopback connections go
// through.
func TestLoopbackGuard(t *testing.T) {
	t.Parallel()
	tc := needToolchain(t)
	url := serve(t, anchorApp(t))
	script := `
const probe = async (u) => fetch(u).then((r) => 'ok ' + r.status, (e) => 'refused ' + (e.cause?.code ?? e.message));
const net = await import('node:net');
const raw = await new Promise((resolve) => {
  const s = net.connect(8080, '192.0.2.1');
  s.on('error', (e) => resolve('refused ' + e.code));
  s.on('connect', () => { s.destroy(); resolve('connected'); });
});
console.log(JSON.stringify([await probe('http://192.0.2.1:8080/'), await probe('https://example.invalid/'), raw, await probe(process.argv[1] + '/api/tools')]));
`
	res := tc.exec(t, time.Minute, t.TempDir(), filepath.Join(tc.bin, "node"), "--input-type=module", "-e", script, url)
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	want := `["refused ECOMPATGUARD","refused ECOMPATGUARD","refused ECOMPATGUARD","ok 200"]`
	if got := strings.TrimSpace(res.stdout); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	for _, host := range []string{"192.0.2.1:8080", "example.invalid:443"} {
		if !strings.Contains(res.stderr, guardMarker+" refused connection to "+host) {
			t.Errorf("no refusal reported for %s; stderr: %s", host, res.stderr)
		}
	}
}
