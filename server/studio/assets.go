package studio

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"path"
	"strings"
)

// files holds the page: index.html (a template of the page, see
// renderIndex) and the static assets under assets/.
//
//go:embed assets
var files embed.FS

// asset is one file the handler serves: its bytes, content type and
// strong ETag.
type asset struct {
	body        []byte
	contentType string
	etag        string
}

// contentTypes are the types of the files the studio ships, by extension.
// A fixed table (not the system's mime.types) so the answer does not
// depend on the machine.
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".json":        "application/json",
	".map":         "application/json",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".ico":         "image/x-icon",
	".txt":         "text/plain; charset=utf-8",
	".woff2":       "font/woff2",
	".webmanifest": "application/manifest+json",
}

// looksLikeFile reports whether a request path names a file (its last
// segment ends in an extension a web page fetches as a file). Such a path
// that is not an asset is a 404, not the page: a missing script must not
// be answered with HTML.
func looksLikeFile(p string) bool {
	_, ok := contentTypes[strings.ToLower(path.Ext(p))]
	return ok
}

func newAsset(body []byte, contentType string) *asset {
	sum := sha256.Sum256(body)
	return &asset{body: body, contentType: contentType, etag: `"` + hex.EncodeToString(sum[:16]) + `"`}
}

// loadAssets reads the embedded files under assets/ (index.html, the
// page template, excluded), keyed by their URL path ("/assets/...").
func loadAssets() (map[string]*asset, error) {
	out := map[string]*asset{}
	err := fs.WalkDir(files, "assets", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || name == indexFile {
			return err
		}
		ct, ok := contentTypes[strings.ToLower(path.Ext(name))]
		if !ok {
			ct = "application/octet-stream"
		}
		b, err := files.ReadFile(name)
		if err != nil {
			return err
		}
		out["/"+name] = newAsset(b, ct)
		return nil
	})
	return out, err
}
