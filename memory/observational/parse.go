package observational

import (
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf16"
)

// The parsing follows @mastra/memory 1.31.0's observer-agent.ts and
// reflector-agent.ts (parseMemorySectionXml, parseReflectorSectionXml,
// sanitizeObservationLines, optimizeObservationsForContext); the tests
// check it against what Mastra's own functions return (testdata/parse.json).

var (
	observationsBlock = regexp.MustCompile(`(?im)^[ \t]*<observations>([\s\S]*?)^[ \t]*</observations>`)
	currentTaskBlock  = regexp.MustCompile(`(?im)^[ \t]*<current-task>([\s\S]*?)^[ \t]*</current-task>`)
	suggestedBlock    = regexp.MustCompile(`(?im)^[ \t]*<suggested-response>([\s\S]*?)^[ \t]*</suggested-response>`)
	anyCurrentTask    = regexp.MustCompile(`(?i)<current-task>([\s\S]*?)</current-task>`)
	anySuggested      = regexp.MustCompile(`(?i)<suggested-response>([\s\S]*?)</suggested-response>`)
	listLine          = regexp.MustCompile(`^\s*[-*]\s|^\s*\d+\.\s`)
	boundarySplit     = regexp.MustCompile(`\n{2,}--- message boundary \(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z\) ---\n{2,}`)
	yellowMarker      = regexp.MustCompile(`🟡\s*`)
	greenMarker       = regexp.MustCompile(`🟢\s*`)
	arrow             = regexp.MustCompile(`\s*->\s*`)
	doubleSpaces      = regexp.MustCompile(`  +`)
	manyNewlines      = regexp.MustCompile(`\n{3,}`)
)

// parsed is an observer's or reflector's output as Mastra reads it.
type parsed struct {
	Observations      string
	CurrentTask       string
	SuggestedResponse string
}

// parseObserverOutput is Mastra's parseObserverOutput: the <observations>
// blocks (tags at the start of a line), else the output's list items; the
// first <current-task> and <suggested-response> sections.
func parseObserverOutput(out string) parsed {
	var p parsed
	p.Observations = observationBlocks(out)
	if p.Observations == "" && !observationsBlock.MatchString(out) {
		p.Observations = listItems(out)
	}
	p.Observations = sanitizeObservationLines(p.Observations)
	p.CurrentTask = firstSection(currentTaskBlock, out)
	p.SuggestedResponse = firstSection(suggestedBlock, out)
	return p
}

// parseReflectorOutput is Mastra's parseReflectorOutput: as the
// observer's, but without tags it falls back to the list items and then
// to the whole output, and its sections need not start a line.
func parseReflectorOutput(out string) parsed {
	var p parsed
	if observationsBlock.MatchString(out) {
		p.Observations = observationBlocks(out)
	} else if p.Observations = listItems(out); p.Observations == "" {
		p.Observations = strings.TrimSpace(out)
	}
	p.Observations = sanitizeObservationLines(p.Observations)
	p.CurrentTask = firstSection(anyCurrentTask, out)
	p.SuggestedResponse = firstSection(anySuggested, out)
	return p
}

func observationBlocks(out string) string {
	var blocks []string
	for _, m := range observationsBlock.FindAllStringSubmatch(out, -1) {
		if s := strings.TrimSpace(m[1]); s != "" {
			blocks = append(blocks, s)
		}
	}
	return strings.Join(blocks, "\n")
}

func firstSection(re *regexp.Regexp, out string) string {
	if m := re.FindStringSubmatch(out); m != nil {
		return strings.TrimSpace(m[1])
	}
	return ""
}

// listItems keeps the lines that are list items (-, * or numbered).
func listItems(out string) string {
	var keep []string
	for _, line := range strings.Split(out, "\n") {
		if listLine.MatchString(line) {
			keep = append(keep, line)
		}
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}

// maxObservationLine is MAX_OBSERVATION_LINE_CHARS, in UTF-16 units.
const maxObservationLine = 10_000

// sanitizeObservationLines cuts lines longer than maxObservationLine.
func sanitizeObservationLines(obs string) string {
	lines := strings.Split(obs, "\n")
	changed := false
	for i, line := range lines {
		u := utf16.Encode([]rune(line))
		if len(u) <= maxObservationLine {
			continue
		}
		end := maxObservationLine
		if c := u[end-1]; c >= 0xd800 && c <= 0xdbff {
			end--
		}
		lines[i] = string(utf16.Decode(u[:end])) + " … [truncated]"
		changed = true
	}
	if !changed {
		return obs
	}
	return strings.Join(lines, "\n")
}

// optimizeForContext is optimizeObservationsForContext: the 🟡 and 🟢
// markers, [tags] (not [N items collapsed …] nor link labels) and arrows
// removed, spaces and blank lines collapsed.
func optimizeForContext(obs string) string {
	s := yellowMarker.ReplaceAllString(obs, "")
	s = greenMarker.ReplaceAllString(s, "")
	s = removeTags(s)
	s = arrow.ReplaceAllString(s, " ")
	s = doubleSpaces.ReplaceAllString(s, " ")
	s = manyNewlines.ReplaceAllString(s, "\n\n")
	return strings.TrimSpace(s)
}

// removeTags is the replacement of /\[(?![\d\s]*items collapsed)[^\]]+\](?!\()/g
// by "" (RE2 has no lookahead).
func removeTags(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '[' {
			if end := strings.IndexByte(s[i+1:], ']'); end > 0 {
				inner, after := s[i+1:i+1+end], i+2+end
				collapsed := strings.HasPrefix(strings.TrimLeft(inner, "0123456789 \t\n\r\f\v"), "items collapsed")
				if !collapsed && (after >= len(s) || s[after] != '(') {
					i = after
					continue
				}
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// splitContextChunks splits observations at their message boundaries.
func splitContextChunks(obs string) []string {
	obs = strings.TrimSpace(obs)
	if obs == "" {
		return nil
	}
	var chunks []string
	for _, c := range boundarySplit.Split(obs, -1) {
		if c = strings.TrimSpace(c); c != "" {
			chunks = append(chunks, c)
		}
	}
	return chunks
}

// minDuplicateLine is MIN_DUPLICATE_LINE_CHARS.
const minDuplicateLine = 24

// degenerate is Mastra's detectDegenerateRepetition: an answer of 2,000
// UTF-16 units or more that repeats itself (over 40% of ~50 sampled
// 200-unit windows seen before, a line of over 50,000 units, or over
// half of 20 or more substantial lines repeated), the sign of a model
// caught in a loop.
func degenerate(text string) bool {
	u := utf16.Encode([]rune(text))
	if len(u) < 2000 {
		return false
	}
	const window = 200
	step := max(1, len(u)/50)
	seen := map[string]int{}
	dup, total := 0, 0
	for i := 0; i+window <= len(u); i += step {
		w := string(utf16.Decode(u[i : i+window]))
		total++
		if seen[w]++; seen[w] > 1 {
			dup++
		}
	}
	if total > 5 && float64(dup)/float64(total) > 0.4 {
		return true
	}
	lines := strings.Split(text, "\n")
	for _, l := range lines {
		if len(utf16.Encode([]rune(l))) > 50_000 {
			return true
		}
	}
	seenLines := map[string]int{}
	dup, total = 0, 0
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if len(utf16.Encode([]rune(l))) < minDuplicateLine {
			continue
		}
		total++
		if seenLines[l]++; seenLines[l] > 1 {
			dup++
		}
	}
	return total >= 20 && float64(dup)/float64(total) > 0.5
}

var (
	// Mastra's /<\/?thread\b[^>]{0,1024}>/gi (RE2 repeats at most 1,000 times).
	threadTag      = regexp.MustCompile(`(?i)</?thread\b[^>]{0,1000}[^>]{0,24}>`)
	threadOpenTag  = regexp.MustCompile(`<thread id="([^"]+)">`)
	sectionDate    = regexp.MustCompile(`Date:\s*([A-Za-z]+\s+\d+,\s+\d+)`)
	threadCloseTag = "</thread>"
)

// stripThreadTags is Mastra's: the observer's own <thread> tags removed.
func stripThreadTags(obs string) string {
	return strings.TrimSpace(threadTag.ReplaceAllString(obs, ""))
}

// mergeThreadSection is Mastra's replaceOrAppendThreadSection (resource
// scope): a thread's new section whose first date its existing section
// already has joins that section; any other is appended after a message
// boundary.
func mergeThreadSection(existing, section string, last time.Time) string {
	if existing == "" {
		return section
	}
	id, date := threadOpenTag.FindStringSubmatch(section), sectionDate.FindStringSubmatch(section)
	if id != nil && date != nil {
		open := `<thread id="` + id[1] + `">`
		if start := strings.Index(existing, open); start >= 0 {
			if c := strings.Index(existing[start:], threadCloseTag); c >= 0 {
				end := start + c + len(threadCloseTag)
				old := existing[start:end]
				if strings.Contains(old, "Date: "+date[1]) || strings.Contains(old, "Date:"+date[1]) {
					lineEnd := strings.IndexByte(section[strings.Index(section, "Date:"):], '\n')
					closeAt := strings.LastIndex(section, threadCloseTag)
					if lineEnd >= 0 && closeAt >= 0 {
						lineEnd += strings.Index(section, "Date:")
						if content := strings.TrimSpace(section[lineEnd+1 : closeAt]); content != "" {
							merged := strings.TrimRightFunc(old[:len(old)-len(threadCloseTag)], unicode.IsSpace) + "\n" + content + "\n" + threadCloseTag
							return existing[:start] + merged + existing[end:]
						}
					}
				}
			}
		}
	}
	return existing + messageBoundary(last) + section
}
