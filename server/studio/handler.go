package studio

import (
	"bytes"
	"net/http"
	"path"
	"strings"
	"time"
)

// DefaultTitle is the page title when Options.Title is empty.
const DefaultTitle = "Mastra Studio"

// Options configure the studio page.
type Options struct {
	// APIPrefix is where the page finds the API: the server's
	// Options.APIPrefix (default "/api"; "/" is the root).
	APIPrefix string
	// Title is the page's title and heading (default DefaultTitle).
	Title string
}

// normalised returns o with its defaults and the prefix in the server's
// form: a leading slash, no trailing one, "" for the root.
func (o Options) normalised() Options {
	if o.APIPrefix == "" {
		o.APIPrefix = "/api"
	}
	p := o.APIPrefix
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	o.APIPrefix = strings.TrimRight(p, "/")
	if strings.TrimSpace(o.Title) == "" {
		o.Title = DefaultTitle
	}
	return o
}

// contentSecurityPolicy lets the page load and call only its own origin:
// no inline script, no CDN, no other host.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// handler serves the page and its assets from memory.
type handler struct {
	index  *asset
	assets map[string]*asset
}

// Handler returns the studio: an http.Handler for GET and HEAD that
// answers
//
//   - the page (200, text/html) for "/", "/index.html" and any path that
//     does not name a file, so the page's deep links (/agents/<id>,
//     /tools/<id>, /workflows/<id>) survive a reload;
//   - the assets under /assets/ with their content types;
//   - 404 (text/plain) for a missing asset: any other path under
//     /assets/, or a path whose last segment has a file extension a page
//     fetches (.js, .css, .svg, .png, .ico, .json, .map, ...);
//   - 405 for any other method.
//
// The page and the assets carry a strong ETag (conditional requests get
// 304) and honour range requests. Every answer carries Cache-Control:
// no-cache (the browser revalidates, so a new binary's page is seen at
// once), X-Content-Type-Options: nosniff, and a Content-Security-Policy
// that confines the page to its own origin. The handler holds everything
// in memory, built once here; it is safe for concurrent use.
//
// The server does not hand the studio anything when its API is served
// at the root (APIPrefix "/"): there is no room beside it.
func Handler(opts Options) http.Handler {
	opts = opts.normalised()
	page, err := renderIndex(opts)
	if err != nil {
		return brokenHandler{err}
	}
	assets, err := loadAssets()
	if err != nil {
		return brokenHandler{err}
	}
	return &handler{index: newAsset(page, contentTypes[".html"]), assets: assets}
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	setCommonHeaders(w.Header())
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "405 Method Not Allowed", http.StatusMethodNotAllowed)
		return
	}
	p := r.URL.Path
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	p = path.Clean(p)
	if a, ok := h.assets[p]; ok {
		serveAsset(w, r, a)
		return
	}
	if p == "/index.html" || (!strings.HasPrefix(p, "/assets/") && p != "/assets" && !looksLikeFile(p)) {
		serveAsset(w, r, h.index)
		return
	}
	http.Error(w, "404 Not Found", http.StatusNotFound)
}

func setCommonHeaders(hd http.Header) {
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Content-Security-Policy", contentSecurityPolicy)
	hd.Set("Cache-Control", "no-cache")
}

// serveAsset answers a: http.ServeContent does HEAD, If-None-Match
// (against the ETag set here) and ranges.
func serveAsset(w http.ResponseWriter, r *http.Request, a *asset) {
	w.Header().Set("Content-Type", a.contentType)
	w.Header().Set("ETag", a.etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.body))
}

// brokenHandler answers 500 with the reason the studio could not be
// built (a damaged embedded page: a build problem, never a request's).
type brokenHandler struct{ err error }

func (b brokenHandler) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	http.Error(w, "500 studio unavailable: "+b.err.Error(), http.StatusInternalServerError)
}
