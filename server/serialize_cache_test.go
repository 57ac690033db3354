package server

import (
	"runtime"
	"testing"
	"time"
)

// The serialised-tool cache answers repeat requests from memory and lets
// go of a tool once the tool itself is gone (tools made per request).
func TestSerializedToolCacheForgetsCollectedTools(t *testing.T) {
	count := func() (n int) {
		serializedTools.Range(func(_, _ any) bool { n++; return true })
		return n
	}
	before := count()
	func() {
		tl := addTool()
		first, err := serializeTool(tl)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := serializeTool(tl)
		if &first[0] != &again[0] {
			t.Errorf("the second call did not come from the cache")
		}
		if fresh, _ := buildSerializedTool(tl); string(fresh) != string(first) {
			t.Errorf("cached %s, built %s", first, fresh)
		}
	}()
	for i := 0; i < 50 && count() > before; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if n := count(); n > before {
		t.Errorf("%d entries left after the tool was collected (had %d)", n, before)
	}
}
