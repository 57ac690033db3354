package observational

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/processors"
)

// stored is a thread message as the observer is shown it.
type stored struct {
	ID        string
	ThreadID  string
	CreatedAt time.Time
	Msg       model.Message
	// Raw is the message's stored JSON, which keeps the order of a tool
	// result's members (nil: Msg's are written in Go's order).
	Raw json.RawMessage
}

// line is one line of the observer's history (observer-agent.ts's
// ObserverFormattedLine).
type line struct{ date, time, title, body string }

// observerHistory is buildObserverHistoryMessage (observer-agent.ts) for
// gomastra's messages: a user message whose first part is the heading and
// then one text part per message, each line "Role (time): text", a date
// line where the date changes and the time only where it changes. A tool
// message's results join the assistant message that made the calls, as
// Mastra keeps calls and results in one message. Dates and times are in
// loc, as Mastra's are in the server's time zone.
func observerHistory(msgs []stored, loc *time.Location) model.Message {
	out := model.Message{Role: model.RoleUser, Content: []model.Part{model.Text("## New Message History to Observe\n\n")}}
	for _, s := range historySections(msgs, loc, 0) {
		out.Content = append(out.Content, model.Text(s))
	}
	return out
}

// historySections are observerHistory's texts, one per message (a tool
// message's with its calls' message), each part's text cut at maxLen
// characters (0: no limit; Mastra's maxPartLength).
func historySections(msgs []stored, loc *time.Location, maxLen int) []string {
	images, files := 0, 0
	return numberedSections(msgs, loc, maxLen, &images, &files)
}

// numberedSections is historySections numbering attachments on from
// *images and *files, which it advances.
func numberedSections(msgs []stored, loc *time.Location, maxLen int, images, files *int) []string {
	var out []string
	var groups [][]line
	for i, m := range msgs {
		ls := messageLines(m, loc, images, files, maxLen)
		if m.Msg.Role == model.RoleTool && i > 0 && msgs[i-1].Msg.Role == model.RoleAssistant && len(groups) > 0 {
			groups[len(groups)-1] = append(groups[len(groups)-1], ls...)
			continue
		}
		if m.Msg.Role == model.RoleTool && i > 0 && msgs[i-1].Msg.Role == model.RoleTool && len(groups) > 0 {
			groups[len(groups)-1] = append(groups[len(groups)-1], ls...)
			continue
		}
		groups = append(groups, ls)
	}
	var prevDate, prevTime string
	for _, g := range groups {
		if len(g) == 0 {
			continue
		}
		var b []string
		for _, l := range g {
			if l.date != "" && l.date != prevDate {
				b = append(b, l.date+":")
				prevDate, prevTime = l.date, ""
			}
			label := ""
			if l.time != "" && l.time != prevTime {
				label = "(" + l.time + ")"
			}
			switch {
			case l.title == "" && label != "":
				b = append(b, label+": "+l.body)
			case l.title == "":
				b = append(b, l.body)
			case label != "":
				b = append(b, l.title+" "+label+": "+l.body)
			default:
				b = append(b, l.title+": "+l.body)
			}
			if l.time != "" {
				prevTime = l.time
			}
		}
		out = append(out, strings.Join(b, "\n"))
	}
	return out
}

func messageLines(m stored, loc *time.Location, images, files *int, maxLen int) []line {
	t := m.CreatedAt.In(loc)
	date := fmt.Sprintf("%s %d %d", t.Format("Jan"), t.Day(), t.Year())
	clock := t.Format("3:04 PM")
	if m.CreatedAt.IsZero() {
		date, clock = "", ""
	}
	role := string(m.Msg.Role)
	if role != "" {
		role = strings.ToUpper(role[:1]) + role[1:]
	}
	var ls []line
	add := func(title, body string) {
		if body != "" {
			ls = append(ls, line{date, clock, title, body})
		}
	}
	var raw struct {
		Content []struct {
			Output struct {
				Value json.RawMessage `json:"value"`
			} `json:"output"`
		} `json:"content"`
	}
	if len(m.Raw) > 0 && json.Unmarshal(m.Raw, &raw) == nil && len(raw.Content) != len(m.Msg.Content) {
		raw.Content = nil
	}
	for i, p := range m.Msg.Content {
		switch p.Type {
		case model.MessageText:
			add(role, truncateChars(p.Text, maxLen))
		case model.MessageReasoning:
			add("Reasoning", truncateChars(p.Text, maxLen))
		case model.MessageToolCall:
			if p.ToolCall != nil {
				add("Tool Call "+p.ToolCall.ToolName, truncateChars(toolArguments(p.ToolCall.Input), maxLen))
			}
		case model.MessageToolResult:
			if r := p.ToolResult; r != nil {
				var value json.RawMessage
				if raw.Content != nil {
					value = raw.Content[i].Output.Value
				}
				title, body := toolOutcome(r.Output, value)
				add(title+" "+r.ToolName, truncateChars(body, maxLen))
			}
		case model.MessageImage:
			add("Image", attachmentPlaceholder(p, images, files))
		case model.MessageFile:
			add("File", attachmentPlaceholder(p, images, files))
		}
	}
	return ls
}

// observerResultTokens is DEFAULT_OBSERVER_TOOL_RESULT_MAX_TOKENS.
const observerResultTokens = 5_000

// toolOutcome is the title and body of a tool result line: the result as
// JSON.stringify(value, null, 2) writes it (a string as it is; long
// encryptedContent strings stripped), cut to 5,000 tokens, as Mastra's
// formatToolResultForObserver. raw, when given, is the value's stored
// JSON, whose member order JavaScript would keep.
func toolOutcome(o model.ToolResultOutput, raw json.RawMessage) (string, string) {
	title := "Tool Result"
	switch o.Type {
	case model.OutputErrorText, model.OutputErrorJSON:
		title = "Tool Error"
	case model.OutputExecutionDenied:
		reason := o.Reason
		if strings.TrimSpace(reason) == "" {
			reason = "Tool call was not approved by the user"
		}
		return "Tool Denied", reason
	}
	empty := "[empty result]"
	if title == "Tool Error" {
		empty = "Tool execution failed"
	}
	if s, ok := o.Value.(string); ok {
		if strings.TrimSpace(s) == "" {
			return title, empty
		}
		return title, truncateByTokens(s, observerResultTokens)
	}
	if o.Value == nil {
		return title, empty
	}
	if len(raw) > 0 {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if v, err := decodeValue(dec); err == nil {
			var b strings.Builder
			writeJS(&b, redactEncrypted(v), "")
			return title, truncateByTokens(b.String(), observerResultTokens)
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if enc.Encode(o.Value) != nil {
		return title, fmt.Sprint(o.Value)
	}
	return title, truncateByTokens(strings.TrimSuffix(b.String(), "\n"), observerResultTokens)
}

// redactEncrypted is sanitizeToolResultValue: an encryptedContent string
// of over 256 UTF-16 units is replaced by its size.
func redactEncrypted(v *jsonValue) *jsonValue {
	if v.kind != 'o' && v.kind != 'a' {
		return v
	}
	c := *v
	c.vals = make([]*jsonValue, len(v.vals))
	for i, e := range v.vals {
		if v.kind == 'o' && v.keys[i] == "encryptedContent" && e.kind == 's' && jsLen(e.str) > 256 {
			c.vals[i] = &jsonValue{kind: 's', str: fmt.Sprintf("[stripped encryptedContent: %d characters]", jsLen(e.str))}
			continue
		}
		c.vals[i] = redactEncrypted(e)
	}
	return &c
}

// writeJS writes v as JSON.stringify(v, null, 2) does.
func writeJS(b *strings.Builder, v *jsonValue, indent string) {
	switch v.kind {
	case 's':
		b.WriteString(jsString(v.str))
	case 'p':
		if v.plain == "-0" {
			b.WriteString("0") // JSON.stringify(-0)
		} else {
			b.WriteString(v.plain)
		}
	default:
		open, end := "[", "]"
		if v.kind == 'o' {
			open, end = "{", "}"
		}
		if len(v.vals) == 0 {
			b.WriteString(open + end)
			return
		}
		b.WriteString(open)
		inner := indent + "  "
		for i, e := range v.vals {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n" + inner)
			if v.kind == 'o' {
				b.WriteString(jsString(v.keys[i]) + ": ")
			}
			writeJS(b, e, inner)
		}
		b.WriteString("\n" + indent + end)
	}
}

// truncateByTokens is truncateStringByTokens: the longest start of text
// that, with a note of the tokens left out, fits maxTokens.
func truncateByTokens(text string, maxTokens int) string {
	total := processors.EstimateTokens(text)
	if text == "" || total <= maxTokens {
		return text
	}
	u := utf16.Encode([]rune(text))
	candidate := func(n int) string {
		if n > 0 && n < len(u) && u[n-1] >= 0xd800 && u[n-1] <= 0xdbff {
			n--
		}
		visible := string(utf16.Decode(u[:n]))
		return fmt.Sprintf("%s\n... [truncated ~%d tokens]", visible, total-processors.EstimateTokens(visible))
	}
	best := candidate(0)
	for lo, hi := 0, len(u); lo <= hi; {
		mid := (lo + hi) / 2
		if c := candidate(mid); processors.EstimateTokens(c) <= maxTokens {
			best, lo = c, mid+1
		} else {
			hi = mid - 1
		}
	}
	return best
}

var imageExtensions = map[string]bool{"png": true, "jpg": true, "jpeg": true, "webp": true, "gif": true, "bmp": true, "tiff": true, "tif": true, "heic": true, "heif": true, "avif": true}

var pathExtension = regexp.MustCompile(`(?i)\.([a-z0-9]+)$`)

func imageExtension(p string) bool {
	p, _, _ = strings.Cut(p, "#")
	p, _, _ = strings.Cut(p, "?")
	m := pathExtension.FindStringSubmatch(p)
	return m != nil && imageExtensions[strings.ToLower(m[1])]
}

// absoluteURL is new URL(s) succeeding, roughly: a scheme and no spaces.
func absoluteURL(s string) (*url.URL, bool) {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || strings.ContainsAny(s, " \n") {
		return nil, false
	}
	return u, true
}

// attachmentPlaceholder is formatObserverAttachmentPlaceholder: "[Image
// #1: label]" or "[File #1: label]", numbered in the history, labelled by
// the file name, the URL's last segment or the media type.
func attachmentPlaceholder(p model.Part, images, files *int) string {
	image := p.Type == model.MessageImage
	if !image {
		image = strings.HasPrefix(strings.ToLower(p.MediaType), "image/") || strings.HasPrefix(p.Data, "data:image/")
		if u, ok := absoluteURL(p.Data); !image && ok && (u.Scheme == "http" || u.Scheme == "https") {
			image = imageExtension(u.Path)
		}
		image = image || imageExtension(p.Filename)
	}
	kind, n := "File", files
	if image {
		kind, n = "Image", images
	}
	*n++
	label := strings.TrimSpace(p.Filename)
	if label == "" {
		label = p.MediaType
		if u, ok := absoluteURL(p.Data); ok && !strings.HasPrefix(p.Data, "data:") {
			segs := strings.Split(u.Path, "/")
			for i := len(segs) - 1; i >= 0; i-- {
				if segs[i] != "" {
					if s, err := url.PathUnescape(segs[i]); err == nil {
						label = s
					}
					break
				}
			}
		}
	}
	if label == "" {
		return fmt.Sprintf("[%s #%d]", kind, *n)
	}
	return fmt.Sprintf("[%s #%d: %s]", kind, *n, label)
}

// truncateChars is Mastra's maybeTruncate: s cut at max UTF-16 code
// units (not inside a surrogate pair) with a note of how many were cut;
// s itself when max is 0 or s is no longer.
func truncateChars(s string, max int) string {
	if max <= 0 {
		return s
	}
	units := utf16.Encode([]rune(s))
	if len(units) <= max {
		return s
	}
	end := max
	if utf16.IsSurrogate(rune(units[end-1])) && units[end-1] < 0xDC00 {
		end--
	}
	return string(utf16.Decode(units[:end])) + fmt.Sprintf("\n... [truncated %d characters]", len(units)-end)
}
