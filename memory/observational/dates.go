package observational

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Relative dates, as @mastra/memory 1.31.0's date-utils.ts adds them to
// the observations the actor is shown (addRelativeTimeToObservations);
// the tests check them against its output (testdata/relative.json).

var (
	dateHeader  = regexp.MustCompile(`(?m)^(Date:\s*)([A-Z][a-z]+ \d{1,2}, \d{4})$`)
	inlineDate  = regexp.MustCompile(`(?i)\((estimated|meaning)\s+([^)]+\d{4})\)`)
	simpleDate  = regexp.MustCompile(`([A-Z][a-z]+)\s+(\d{1,2}),?\s+(\d{4})`)
	rangeDate   = regexp.MustCompile(`([A-Z][a-z]+)\s+(\d{1,2})-\d{1,2},?\s+(\d{4})`)
	vagueDate   = regexp.MustCompile(`(?i)(late|early|mid)[- ]?(?:to[- ]?(?:late|early|mid)[- ]?)?([A-Z][a-z]+)\s+(\d{4})`)
	crossMonth  = regexp.MustCompile(`(?i)([A-Z][a-z]+)\s+to\s+(?:early\s+)?([A-Z][a-z]+)\s+(\d{4})`)
	futureWords = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\bwill\s+(?:be\s+)?(?:\w+ing|\w+)\b`),
		regexp.MustCompile(`(?i)\bplans?\s+to\b`),
		regexp.MustCompile(`(?i)\bplanning\s+to\b`),
		regexp.MustCompile(`(?i)\blooking\s+forward\s+to\b`),
		regexp.MustCompile(`(?i)\bgoing\s+to\b`),
		regexp.MustCompile(`(?i)\bintends?\s+to\b`),
		regexp.MustCompile(`(?i)\bwants?\s+to\b`),
		regexp.MustCompile(`(?i)\bneeds?\s+to\b`),
		regexp.MustCompile(`(?i)\babout\s+to\b`),
	}
	months = map[string]time.Month{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}
)

// jsDate is new Date(`${month} ${day}, ${year}`) at midnight in loc: the
// month is known by its first three letters, as V8 knows it.
func jsDate(month, day, year string, loc *time.Location) (time.Time, bool) {
	if len(month) < 3 {
		return time.Time{}, false
	}
	m, ok := months[strings.ToLower(month[:3])]
	d, err1 := strconv.Atoi(day)
	y, err2 := strconv.Atoi(year)
	if !ok || err1 != nil || err2 != nil || d < 1 || d > 31 {
		return time.Time{}, false
	}
	return time.Date(y, m, d, 0, 0, 0, 0, loc), true
}

// daysBetween is Math.floor((b - a) / 1 day).
func daysBetween(a, b time.Time) int {
	return int(math.Floor(float64(b.Sub(a)) / float64(24*time.Hour)))
}

// relativeTime is formatRelativeTime.
func relativeTime(date, now time.Time) string {
	days := daysBetween(date, now)
	if days < 0 {
		f := -days
		switch {
		case f == 1:
			return "tomorrow"
		case f < 7:
			return fmt.Sprintf("in %d days", f)
		case f < 14:
			return "in 1 week"
		case f < 30:
			return fmt.Sprintf("in %d weeks", f/7)
		case f < 60:
			return "in 1 month"
		case f < 365:
			return fmt.Sprintf("in %d months", f/30)
		}
		return "in " + years(f/365)
	}
	switch {
	case days == 0:
		return "today"
	case days == 1:
		return "yesterday"
	case days < 7:
		return fmt.Sprintf("%d days ago", days)
	case days < 14:
		return "1 week ago"
	case days < 30:
		return fmt.Sprintf("%d weeks ago", days/7)
	case days < 60:
		return "1 month ago"
	case days < 365:
		return fmt.Sprintf("%d months ago", days/30)
	}
	return years(days/365) + " ago"
}

func years(n int) string {
	if n > 1 {
		return fmt.Sprintf("%d years", n)
	}
	return fmt.Sprintf("%d year", n)
}

// gapBetween is formatGapBetweenDates ("" for none).
func gapBetween(prev, curr time.Time) string {
	days := daysBetween(prev, curr)
	switch {
	case days <= 1:
		return ""
	case days < 7:
		return fmt.Sprintf("[%d days later]", days)
	case days < 14:
		return "[1 week later]"
	case days < 30:
		return fmt.Sprintf("[%d weeks later]", days/7)
	case days < 60:
		return "[1 month later]"
	}
	return fmt.Sprintf("[%d months later]", days/30)
}

// dateOfContent is parseDateFromContent.
func dateOfContent(s string, loc *time.Location) (time.Time, bool) {
	if m := simpleDate.FindStringSubmatch(s); m != nil {
		if t, ok := jsDate(m[1], m[2], m[3], loc); ok {
			return t, true
		}
	}
	if m := rangeDate.FindStringSubmatch(s); m != nil {
		if t, ok := jsDate(m[1], m[2], m[3], loc); ok {
			return t, true
		}
	}
	if m := vagueDate.FindStringSubmatch(s); m != nil {
		day := "15"
		switch strings.ToLower(m[1]) {
		case "early":
			day = "7"
		case "late":
			day = "23"
		}
		if t, ok := jsDate(m[2], day, m[3], loc); ok {
			return t, true
		}
	}
	if m := crossMonth.FindStringSubmatch(s); m != nil {
		if t, ok := jsDate(m[2], "1", m[3], loc); ok {
			return t, true
		}
	}
	return time.Time{}, false
}

// expandInlineDates is expandInlineEstimatedDates.
func expandInlineDates(obs string, now time.Time, loc *time.Location) string {
	var b strings.Builder
	last := 0
	for _, m := range inlineDate.FindAllStringSubmatchIndex(obs, -1) {
		prefix, content := obs[m[2]:m[3]], obs[m[4]:m[5]]
		target, ok := dateOfContent(content, loc)
		if !ok {
			continue
		}
		b.WriteString(obs[last:m[0]])
		lineBefore := obs[strings.LastIndexByte(obs[:m[0]], '\n')+1 : m[0]]
		rel := relativeTime(target, now)
		future := false
		for _, re := range futureWords {
			if re.MatchString(lineBefore) {
				future = true
				break
			}
		}
		if target.Before(now) && future {
			fmt.Fprintf(&b, "(%s %s - %s, likely already happened)", prefix, content, rel)
		} else {
			fmt.Fprintf(&b, "(%s %s - %s)", prefix, content, rel)
		}
		last = m[1]
	}
	b.WriteString(obs[last:])
	return b.String()
}

// addRelativeTime is addRelativeTimeToObservations.
func addRelativeTime(obs string, now time.Time, loc *time.Location) string {
	s := expandInlineDates(obs, now, loc)
	type header struct {
		start, end   int
		prefix, text string
		date         time.Time
	}
	var hs []header
	for _, m := range dateHeader.FindAllStringSubmatchIndex(s, -1) {
		text := s[m[4]:m[5]]
		f := strings.Fields(strings.ReplaceAll(text, ",", ""))
		if d, ok := jsDate(f[0], f[1], f[2], loc); ok {
			hs = append(hs, header{m[0], m[1], s[m[2]:m[3]], text, d})
		}
	}
	if len(hs) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for i, h := range hs {
		b.WriteString(s[last:h.start])
		if i > 0 {
			if gap := gapBetween(hs[i-1].date, h.date); gap != "" {
				b.WriteString("\n" + gap + "\n\n")
			}
		}
		b.WriteString(h.prefix + h.text + " (" + relativeTime(h.date, now) + ")")
		last = h.end
	}
	b.WriteString(s[last:])
	return b.String()
}
