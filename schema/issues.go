package schema

// MaxIssues is the most issues a value's validation lists. Validation
// stops looking once it has found one issue more than that, so that a
// value with a million wrong elements costs no more to check, and no more
// to report, than one with MaxIssues+1: [Compiled.Validate] returns the
// first MaxIssues+1 issues at most, in the order and with the words it
// would give them without the limit, and a caller showing the first
// MaxIssues knows from the one past them that more were left out
// ([CapIssues]).
const MaxIssues = 100

// CapIssues splits issues into the first MaxIssues, the ones to show, and
// whether there were more.
func CapIssues(issues []Issue) (shown []Issue, more bool) {
	if len(issues) > MaxIssues {
		return issues[:MaxIssues:MaxIssues], true
	}
	return issues, false
}

// issueList collects the issues of one validation, keeping the first
// limit of them.
type issueList struct {
	items []Issue
	// limit is the most items kept; negative keeps them all.
	limit int
	// found counts the issues found, kept or not: a check that asks
	// whether a part of the value failed compares it before and after.
	found int
}

// newIssueList returns a list keeping up to MaxIssues+1 issues.
func newIssueList() *issueList { return &issueList{limit: MaxIssues + 1} }

// full reports whether the list keeps no more issues: validation of the
// rest of a value can stop.
func (l *issueList) full() bool { return l.limit >= 0 && len(l.items) >= l.limit }

func (l *issueList) add(is Issue) {
	l.found++
	if !l.full() {
		l.items = append(l.items, is)
	}
}

func (l *issueList) addAll(issues []Issue) {
	for _, is := range issues {
		l.add(is)
	}
}
