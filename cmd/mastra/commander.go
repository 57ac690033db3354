package main

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The Mastra CLI is built on commander.js; the `mastra api` tree reproduces
// its usage errors ("error: unknown command 'lst'\n(Did you mean list?)")
// and its help layout, so scripts and people see the same text.

// exitError ends the run with an exit code; whatever needed saying has been
// printed.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func (e exitError) ExitCode() int { return e.code }

// usageError is a command-line mistake, printed as "error: <msg>" on
// stderr with exit code 1.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// commanderFlagsKey annotates a flag with its commander spelling
// ("--url <url>") for "argument missing" messages.
const commanderFlagsKey = "commander-flags"

// tooManyArgs rejects more than max positional arguments.
func tooManyArgs(max int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) <= max {
			return nil
		}
		s := "s"
		if max == 1 {
			s = ""
		}
		return usageError{fmt.Sprintf("too many arguments for '%s'. Expected %d argument%s but got %d.",
			cmd.Name(), max, s, len(args))}
	}
}

func unknownCommand(candidates []string, name string) error {
	return usageError{"unknown command '" + name + "'" + suggestSimilar(name, candidates)}
}

var (
	unknownFlagPattern      = regexp.MustCompile(`^unknown flag: (--\S+)`)
	unknownShorthandPattern = regexp.MustCompile(`^unknown shorthand flag: '.' in (-\S+)`)
	needsArgumentPattern    = regexp.MustCompile(`^flag needs an argument: (?:--(\S+)|'(.)' in -\S+)`)
)

// flagError turns pflag's parse errors into commander's messages.
func flagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	if m := unknownFlagPattern.FindStringSubmatch(msg); m != nil {
		var candidates []string
		for c := cmd; c != nil; c = c.Parent() {
			c.LocalFlags().VisitAll(func(f *pflag.Flag) { candidates = append(candidates, "--"+f.Name) })
			candidates = append(candidates, "--help")
		}
		return usageError{"unknown option '" + m[1] + "'" + suggestSimilar(m[1], candidates)}
	}
	if m := unknownShorthandPattern.FindStringSubmatch(msg); m != nil {
		return usageError{"unknown option '" + m[1] + "'"}
	}
	if m := needsArgumentPattern.FindStringSubmatch(msg); m != nil {
		f := cmd.Flags().Lookup(m[1])
		if m[1] == "" {
			f = cmd.Flags().ShorthandLookup(m[2])
		}
		spec := "--" + m[1]
		if f != nil {
			if a := f.Annotations[commanderFlagsKey]; len(a) > 0 {
				spec = a[0]
			} else {
				spec = "--" + f.Name + " <" + f.Name + ">"
			}
		}
		return usageError{"option '" + spec + "' argument missing"}
	}
	return usageError{msg}
}

// suggestSimilar is commander's "(Did you mean ...?)" hint: the candidates
// at the smallest edit distance (at most 3, and more than 40% alike).
func suggestSimilar(word string, candidates []string) string {
	seen := map[string]bool{}
	var unique []string
	for _, c := range candidates {
		if !seen[c] {
			seen[c] = true
			unique = append(unique, c)
		}
	}
	options := strings.HasPrefix(word, "--")
	if options {
		word = word[2:]
		for i := range unique {
			unique[i] = strings.TrimPrefix(unique[i], "--")
		}
	}
	const maxDistance = 3
	best := maxDistance
	var similar []string
	for _, c := range unique {
		if len(c) <= 1 {
			continue
		}
		d := editDistance(word, c)
		length := max(len(word), len(c))
		if float64(length-d)/float64(length) > 0.4 {
			switch {
			case d < best:
				best, similar = d, []string{c}
			case d == best:
				similar = append(similar, c)
			}
		}
	}
	slices.Sort(similar)
	if options {
		for i := range similar {
			similar[i] = "--" + similar[i]
		}
	}
	switch len(similar) {
	case 0:
		return ""
	case 1:
		return "\n(Did you mean " + similar[0] + "?)"
	}
	return "\n(Did you mean one of " + strings.Join(similar, ", ") + "?)"
}

// editDistance is the optimal-string-alignment Damerau-Levenshtein
// distance, cut off as commander cuts it.
func editDistance(a, b string) int {
	if absInt(len(a)-len(b)) > 3 {
		return max(len(a), len(b))
	}
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for j := 1; j <= len(b); j++ {
		for i := 1; i <= len(a); i++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func absInt(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// helpFunc is cobra's help hook (-h, --help, `mastra help api ...`).
func (b *apiBuilder) helpFunc(cmd *cobra.Command, _ []string) {
	b.writeHelp(cmd, cmd.OutOrStdout())
}

// writeHelp prints commander's help layout: usage, description, options,
// subcommands, then the examples of a leaf command.
func (b *apiBuilder) writeHelp(cmd *cobra.Command, w io.Writer) {
	m := b.meta[cmd]
	if m == nil {
		_ = cmd.Usage()
		return
	}
	usage := "Usage: " + cmd.CommandPath() + " [options]"
	if m.desc == nil {
		usage += " [command]"
	} else {
		usage += " " + argsUsage(m.desc)
	}
	options := append(slices.Clone(m.options), optionHelp{"-h, --help", "display help for command"})
	var commands []optionHelp
	for _, c := range m.children {
		term := c.Name()
		cm := b.meta[c]
		if len(cm.options) > 0 {
			term += " [options]"
		}
		if cm.desc != nil && argsUsage(cm.desc) != "" {
			term += " " + argsUsage(cm.desc)
		}
		commands = append(commands, optionHelp{term, c.Short})
	}
	if m.desc == nil {
		commands = append(commands, optionHelp{"help [command]", "display help for command"})
	}
	width := 0
	for _, o := range append(slices.Clone(options), commands...) {
		width = max(width, len(o.flags))
	}
	lines := []string{strings.TrimRight(usage, " "), ""}
	if cmd.Short != "" {
		lines = append(lines, cmd.Short, "")
	}
	item := func(o optionHelp) string {
		return "  " + o.flags + strings.Repeat(" ", width-len(o.flags)) + "  " + o.description
	}
	lines = append(lines, "Options:")
	for _, o := range options {
		lines = append(lines, item(o))
	}
	lines = append(lines, "")
	if len(commands) > 0 {
		lines = append(lines, "Commands:")
		for _, c := range commands {
			lines = append(lines, item(c))
		}
		lines = append(lines, "")
	}
	text := strings.Join(lines, "\n")
	if m.desc != nil {
		text += "\nExamples:\n"
		for _, e := range m.desc.allExamples() {
			text += "  " + e.command + "\n"
		}
		text = strings.TrimSuffix(text, "\n") + "\n"
	}
	_, _ = io.WriteString(w, text)
}

// argsUsage is "[toolId] [input]": every argument is optional on the
// command line (the command reports missing ones as JSON errors).
func argsUsage(d *descriptor) string {
	var parts []string
	for _, p := range d.positionals {
		parts = append(parts, "["+p+"]")
	}
	if d.acceptsInput {
		parts = append(parts, "[input]")
	}
	return strings.Join(parts, " ")
}
