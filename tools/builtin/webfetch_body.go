package builtin

import (
	"bufio"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/gomastra/mastra/internal/htmltext"
)

// readBody reads, decodes and (for HTML, unless raw) converts a response
// body, and cuts the text at WebFetchMaxChars UTF-16 code units.
// truncated reports a cut for either reason, the byte cap or the
// character cap.
//
// Text that is returned as it is (raw, or not HTML) never needs more than
// 4 bytes per code unit (GB18030's longest sequence gives one BMP
// character), so its read stops at 4 × WebFetchMaxChars bytes plus a BOM;
// HTML is read up to MaxBytes and converted first.
func (f *webFetcher) readBody(resp *http.Response, u *webURL) (content string, truncated bool, err error) {
	contentType := resp.Header.Get("Content-Type")
	br := bufio.NewReaderSize(resp.Body, 512)
	isHTML := isHTMLType(contentType)
	if contentType == "" {
		head, _ := br.Peek(512) // a short or failing body shows up in ReadAll below
		isHTML = strings.HasPrefix(http.DetectContentType(head), "text/html")
	}
	convert := isHTML && !f.raw
	limit := f.maxBytes
	if !convert {
		limit = min(limit, 4*WebFetchMaxChars+4)
	}
	body, err := io.ReadAll(io.LimitReader(br, limit+1))
	if err != nil {
		return "", false, err
	}
	if int64(len(body)) > limit {
		body, truncated = body[:limit], true
	}
	text := decodeText(body, contentType, isHTML, truncated)
	if convert {
		page, _ := url.Parse(u.String())
		text = htmltext.Convert(text, page)
	}
	text, cut := truncateUTF16(text, WebFetchMaxChars)
	return text, truncated || cut, nil
}

// isHTMLType reports an HTML media type.
func isHTMLType(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt, _, _ = strings.Cut(strings.ToLower(strings.TrimSpace(contentType)), ";")
	}
	return mt == "text/html" || mt == "application/xhtml+xml"
}

// truncateUTF16 cuts s after max UTF-16 code units (JavaScript's string
// length: two units for a character beyond U+FFFF). Where Mastra's cut
// would split such a character and leave half of it, this one ends before
// it (max-1 units): Go strings cannot hold half a character.
func truncateUTF16(s string, max int) (string, bool) {
	if len(s) <= max { // every code unit takes at least one byte
		return s, false
	}
	units := 0
	for i, r := range s {
		w := 1
		if r > 0xFFFF {
			w = 2
		}
		if units+w > max {
			return s[:i], true
		}
		units += w
	}
	return s, false
}

// validUTF8 reports whether b is valid UTF-8; when cut, an incomplete
// character at its end is allowed.
func validUTF8(b []byte, cut bool) bool {
	for i := len(b) - 1; cut && i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				b = b[:i]
			}
			break
		}
	}
	return utf8.Valid(b)
}
