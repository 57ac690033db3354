package wire

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

func TestEachElement(t *testing.T) {
	var got []string
	err := EachElement([]byte(` [1, "a" ,{"b":[2]}] `), func(i int, e json.RawMessage) bool {
		got = append(got, strconv.Itoa(i)+"="+string(e))
		return true
	})
	if err != nil || strings.Join(got, " ") != `0=1 1="a" 2={"b":[2]}` {
		t.Errorf("%v %v", got, err)
	}
	n := 0
	if err := EachElement([]byte(`[1,2,3]`), func(int, json.RawMessage) bool { n++; return n < 2 }); err != nil || n != 2 {
		t.Errorf("stopping: %d %v", n, err)
	}
	for _, bad := range []string{`{}`, `1`, ``, `[1,`} {
		if err := EachElement([]byte(bad), func(int, json.RawMessage) bool { return true }); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestEachMember(t *testing.T) {
	var got []string
	err := EachMember([]byte(`{"z":1,"a":[2],"z":3}`), func(k string, v json.RawMessage) bool {
		got = append(got, k+"="+string(v))
		return true
	})
	if err != nil || strings.Join(got, " ") != `z=1 a=[2] z=3` {
		t.Errorf("%v %v", got, err)
	}
	if err := EachMember([]byte(`[1]`), func(string, json.RawMessage) bool { return true }); err == nil {
		t.Error("an array: no error")
	}
}

func TestIssuesKeepsTheFirstMaxIssues(t *testing.T) {
	var l Issues
	for i := range MaxIssues + 5 {
		l.Add("f"+strconv.Itoa(i), "m")
	}
	if len(l) != MaxIssues || !l.Full() || l[MaxIssues-1].Field != "f"+strconv.Itoa(MaxIssues-1) {
		t.Errorf("%d issues", len(l))
	}
	long := make([]Issue, 3*MaxIssues)
	if got := strings.Count(string(AppendError(nil, "x", long, StringifyGo)), `"field"`); got != MaxIssues {
		t.Errorf("AppendError wrote %d issues", got)
	}
}
