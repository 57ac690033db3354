package builtin

import (
	"bytes"
	"mime"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
)

// decodeText decodes a body to UTF-8 text. The encoding comes from, in
// order: a byte order mark (UTF-8, UTF-16LE, UTF-16BE; it is removed), the
// Content-Type charset, for HTML a <meta> charset in the first 1024 bytes
// (the HTML prescan); failing all three, text (text/*, HTML, or no
// Content-Type) that is not valid UTF-8 is windows-1252, the web's
// default for undeclared Western text, and anything else (JSON, XML) is
// UTF-8 (cut: the body was cut by the byte cap, so an incomplete last
// character does not count against UTF-8). Labels are the WHATWG Encoding Standard's. Invalid sequences
// become U+FFFD, as TextDecoder does.
//
// Mastra decodes every body as UTF-8; for UTF-8 bodies (almost all of
// them) the results are the same.
func decodeText(body []byte, contentType string, isHTML, cut bool) string {
	enc, body := bomEncoding(body)
	if enc == nil {
		enc = labelEncoding(charsetParam(contentType))
	}
	if enc == nil && isHTML {
		enc = metaEncoding(body[:min(len(body), 1024)])
	}
	if enc == nil {
		enc = unicode.UTF8
		if isTextType(contentType, isHTML) && !validUTF8(body, cut) {
			enc = charmap.Windows1252
		}
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return strings.ToValidUTF8(string(body), "\uFFFD")
	}
	return string(out)
}

func bomEncoding(b []byte) (encoding.Encoding, []byte) {
	switch {
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		return unicode.UTF8, b[3:]
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), b[2:]
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), b[2:]
	}
	return nil, b
}

func charsetParam(contentType string) string {
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return ""
	}
	return params["charset"]
}

// labelEncoding is the encoding a WHATWG label names, or nil.
func labelEncoding(label string) encoding.Encoding {
	if strings.TrimSpace(label) == "" {
		return nil
	}
	enc, err := htmlindex.Get(label)
	if err != nil {
		return nil
	}
	return enc
}

// metaEncoding finds <meta charset> or <meta http-equiv="content-type"
// content="…charset=…"> in the head of a document. UTF-16 declared there
// means UTF-8 (the HTML standard's rule: a document readable enough to
// declare it is not UTF-16).
func metaEncoding(head []byte) encoding.Encoding {
	z := html.NewTokenizer(bytes.NewReader(head))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return nil
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		name, hasAttr := z.TagName()
		if string(name) != "meta" || !hasAttr {
			continue
		}
		var charset, httpEquiv, content string
		for more := true; more; {
			var k, v []byte
			k, v, more = z.TagAttr()
			switch string(k) {
			case "charset":
				charset = string(v)
			case "http-equiv":
				httpEquiv = string(v)
			case "content":
				content = string(v)
			}
		}
		if charset == "" && strings.EqualFold(strings.TrimSpace(httpEquiv), "content-type") {
			charset = charsetParam(content)
		}
		if enc := labelEncoding(charset); enc != nil {
			if n, _ := htmlindex.Name(enc); strings.HasPrefix(n, "utf-16") {
				return unicode.UTF8
			}
			return enc
		}
	}
}

// isTextType reports text for the windows-1252 fallback: text/* media
// types, HTML, and bodies without a Content-Type.
func isTextType(contentType string, isHTML bool) bool {
	if isHTML || strings.TrimSpace(contentType) == "" {
		return true
	}
	mt, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(contentType)), ";")
	return strings.HasPrefix(mt, "text/")
}
