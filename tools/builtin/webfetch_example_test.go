package builtin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"

	"github.com/gomastra/mastra/tools/builtin"
)

// The default tool refuses internal addresses in any notation, before
// connecting anywhere.
func ExampleWebFetchTool() {
	for _, url := range []string{"http://169.254.169.254/latest/meta-data/", "http://0x7f.1:8080/", "http://[::ffff:10.0.0.1]/", "file:///etc/passwd"} {
		args, _ := json.Marshal(builtin.WebFetchInput{URL: url})
		res, err := builtin.WebFetchTool.Execute(context.Background(), args, nil)
		if err != nil {
			panic(err)
		}
		out, _ := json.Marshal(res.Output)
		fmt.Println(string(out))
	}
	// Output:
	// {"content":"Failed to fetch URL: URL resolves to a private or reserved address.","isError":true}
	// {"content":"Failed to fetch URL: URL resolves to a private or reserved address.","isError":true}
	// {"content":"Failed to fetch URL: URL resolves to a private or reserved address.","isError":true}
	// {"content":"Failed to fetch URL: only HTTP and HTTPS URLs are supported.","isError":true}
}

// A tool that may fetch one local server (the test seam: AllowAddrs names
// the exact 127.0.0.1:port); HTML comes back as readable text.
func ExampleNewWebFetchTool() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><script>track()</script></head><body><nav>Menu</nav>
			<h1>Changelog</h1><ul><li>Faster</li><li>Safer</li></ul></body></html>`)
	}))
	defer srv.Close()

	tool, err := builtin.NewWebFetchTool(builtin.WebFetchOptions{
		AllowAddrs: []netip.AddrPort{netip.MustParseAddrPort(srv.Listener.Addr().String())},
	})
	if err != nil {
		panic(err)
	}
	args, _ := json.Marshal(builtin.WebFetchInput{URL: srv.URL + "/changelog"})
	res, err := tool.Execute(context.Background(), args, nil)
	if err != nil {
		panic(err)
	}
	out := res.Output.(builtin.WebFetchResult)
	fmt.Println(out.Status, out.StatusText, out.OK, *out.ContentType)
	fmt.Println(out.Content)
	// Output:
	// 200 OK true text/html; charset=utf-8
	// # Changelog
	//
	// - Faster
	// - Safer
}
