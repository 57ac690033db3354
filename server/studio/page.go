package studio

import (
	"fmt"
	"html"
	"strings"
)

// indexFile is the page template: the HTML every non-file path is
// answered with, once its placeholders are filled in.
const indexFile = "assets/index.html"

// Placeholders in index.html, replaced (HTML-escaped) by renderIndex.
const (
	titlePlaceholder     = "{{TITLE}}"
	apiPrefixPlaceholder = "{{API_PREFIX}}"
)

// renderIndex fills the page template in with the options: the title and
// the API prefix the scripts read from <meta name="mastra-api-prefix">.
func renderIndex(o Options) ([]byte, error) {
	b, err := files.ReadFile(indexFile)
	if err != nil {
		return nil, fmt.Errorf("studio: reading the page: %w", err)
	}
	page := string(b)
	for _, ph := range []string{titlePlaceholder, apiPrefixPlaceholder} {
		if !strings.Contains(page, ph) {
			return nil, fmt.Errorf("studio: the page has no %s placeholder", ph)
		}
	}
	r := strings.NewReplacer(titlePlaceholder, html.EscapeString(o.Title), apiPrefixPlaceholder, html.EscapeString(o.APIPrefix))
	return []byte(r.Replace(page)), nil
}
