package main

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"go/format"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"

	"github.com/spf13/cobra"
)

//go:embed scaffold/*.tmpl
var scaffoldFS embed.FS

// initOptions are `mastra init`'s flags.
type initOptions struct {
	module     string
	model      string
	mastraPath string
	noInstall  bool
	// findCheckout finds the gomastra checkout to use when mastraPath is
	// empty ("" for none); nil is builtFromCheckout.
	findCheckout func() string
}

// scaffoldFile is one file `mastra init` writes: its path in the new
// project and the template it comes from.
type scaffoldFile struct {
	path, template string
}

// scaffoldFiles are the new project's files, in the order they are
// written (and listed), after go.mod and go.sum.
var scaffoldFiles = []scaffoldFile{
	{"main.go", "main.go.tmpl"},
	{"tools/weather.go", "weather_tool.go.tmpl"},
	{"tools/weather_test.go", "weather_tool_test.go.tmpl"},
	{"agents/weather.go", "weather_agent.go.tmpl"},
	{"internal/wttrstub/wttrstub.go", "wttrstub.go.tmpl"},
	{"cmd/wttr-stub/main.go", "wttr_stub_main.go.tmpl"},
	{"README.md", "README.md.tmpl"},
	{".gitignore", "gitignore.tmpl"},
}

// scaffoldData fills the templates.
type scaffoldData struct {
	Name, Module, Model string
	providerPackage
}

func init() {
	var o initOptions
	c := &cobra.Command{
		Use:   "init [directory]",
		Short: "Create a new Mastra app in Go with the Tools guide's weather tool and agent",
		Long: "init writes a Go module into directory (default: the current directory, which must not hold\n" +
			"any of the files it writes): main.go serving the app with Mastra's API, tools/weather.go (the\n" +
			"guide's weather tool, with a test), agents/weather.go (the weather agent), cmd/wttr-stub (a\n" +
			"stand-in for wttr.in, to try the app offline), a README and a .gitignore. The app links only\n" +
			"the provider of --model. Then it runs `go mod tidy` (skip with --no-install).\n\n" +
			"gomastra comes from a local checkout: --mastra-path, else the checkout this mastra was built\n" +
			"from (go install ./cmd/mastra in a checkout), else the published module.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			return initProject(c.Context(), dir, o, c.OutOrStdout(), c.ErrOrStderr())
		},
	}
	c.Flags().StringVar(&o.module, "module", "", "the new module's path (default: the directory's name)")
	c.Flags().StringVar(&o.model, "model", "openai/gpt-5.6-sol", `the agent's default model, "provider/model"; the app links that provider only`)
	c.Flags().StringVar(&o.mastraPath, "mastra-path", "", "a local gomastra checkout to build against (replace directives, and go.sum lines from it)")
	c.Flags().BoolVar(&o.noInstall, "no-install", false, "write the files only; do not run go mod tidy")
	rootCmd.AddCommand(c)
}

// modulePathRE is what init accepts as a module path: letters, digits
// and . _ - ~ / (no leading or trailing slash, no "..").
var modulePathRE = regexp.MustCompile(`^[A-Za-z0-9._~-]+(/[A-Za-z0-9._~-]+)*$`)

// initProject writes the new project into dir and, unless told not to,
// tidies its module. It refuses to overwrite any file, and removes what
// it wrote when the module cannot be tidied.
func initProject(ctx context.Context, dir string, o initOptions, stdout, stderr io.Writer) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	name := filepath.Base(abs)
	module := o.module
	if module == "" {
		module = strings.ToLower(strings.ReplaceAll(name, " ", "-"))
	}
	if !modulePathRE.MatchString(module) || strings.Contains(module, "..") {
		return fmt.Errorf("init: %q is not a usable module path; pass one with --module (e.g. example.com/weather)", module)
	}
	provider, err := providerOf(o.model)
	if err != nil {
		return err
	}
	if err := refuseExisting(abs, dir); err != nil {
		return err
	}
	src, err := pickSource(o)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Creating a Mastra app in %s\n", abs)
	if src.checkout != "" {
		fmt.Fprintf(stdout, "  gomastra from %s (%s)\n", src.checkout, src.why)
	}
	w := &scaffoldWriter{root: abs, stdout: stdout}
	if err := writeScaffold(w, src, scaffoldData{Name: name, Module: module, Model: o.model, providerPackage: provider}); err != nil {
		w.undo()
		return err
	}
	if !o.noInstall {
		if err := tidy(ctx, abs, src, stdout); err != nil {
			w.undo()
			return fmt.Errorf("%w\n%s", err, w.undoReport(dir))
		}
	}
	printNext(stdout, dir, o.noInstall)
	return nil
}

// refuseExisting fails when any file init writes exists in root.
func refuseExisting(root, dir string) error {
	for _, path := range append([]string{"go.mod", "go.sum"}, scaffoldPaths()...) {
		if _, err := os.Lstat(filepath.Join(root, path)); err == nil {
			return fmt.Errorf("init: %s already exists; init only creates new files (use another directory)", filepath.Join(dir, path))
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("init: %w", err)
		}
	}
	return nil
}

func scaffoldPaths() []string {
	paths := make([]string, len(scaffoldFiles))
	for i, f := range scaffoldFiles {
		paths[i] = f.path
	}
	return paths
}

// writeScaffold writes go.mod, go.sum (with a checkout) and the
// templates.
func writeScaffold(w *scaffoldWriter, src gomastraSource, data scaffoldData) error {
	gomod, gosum, err := moduleFiles(data.Module, src, data.providerPackage)
	if err != nil {
		return err
	}
	if err := w.write("go.mod", gomod); err != nil {
		return err
	}
	if gosum != nil {
		if err := w.write("go.sum", gosum); err != nil {
			return err
		}
	}
	for _, f := range scaffoldFiles {
		b, err := renderScaffold(f, data)
		if err != nil {
			return err
		}
		if err := w.write(f.path, b); err != nil {
			return err
		}
	}
	return nil
}

// tidy runs `go mod tidy` in the new module. Its output is shown only
// when it fails, summed up in a sentence saying what to do.
func tidy(ctx context.Context, dir string, src gomastraSource, stdout io.Writer) error {
	fmt.Fprintln(stdout, "Running go mod tidy (resolves the app's dependencies; the first time, it downloads them)...")
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "go", "mod", "tidy")
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &out, &out
	if err := cmd.Run(); err != nil {
		last := lastLine(out.String())
		if src.checkout != "" {
			return fmt.Errorf("init: go mod tidy failed against the checkout %s: %s", src.checkout, last)
		}
		return fmt.Errorf("init: go mod tidy could not fetch gomastra (%s); until gomastra is published, build against a checkout: mastra init --mastra-path /path/to/gomastra", last)
	}
	return nil
}

// lastLine is the last non-empty line of go's output, the one that says
// why it failed.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

func printNext(stdout io.Writer, dir string, noInstall bool) {
	fmt.Fprintf(stdout, "\nDone. Next:\n")
	if dir != "." {
		fmt.Fprintf(stdout, "  cd %s\n", dir)
	}
	if noInstall {
		fmt.Fprintln(stdout, "  go mod tidy")
	}
	fmt.Fprintf(stdout, "  mastra dev\n  mastra api tool execute weather-tool '{\"location\":\"San Francisco\"}'\n")
	fmt.Fprintln(stdout, "Offline? README.md shows the same call against a local stand-in for wttr.in.")
}

// renderScaffold fills f's template; Go files come out gofmt-ed.
func renderScaffold(f scaffoldFile, data scaffoldData) ([]byte, error) {
	t, err := template.ParseFS(scaffoldFS, "scaffold/"+f.template)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return nil, fmt.Errorf("init: %s: %w", f.path, err)
	}
	if strings.HasSuffix(f.path, ".go") {
		formatted, err := format.Source(b.Bytes())
		if err != nil {
			return nil, fmt.Errorf("init: %s: %w", f.path, err)
		}
		return formatted, nil
	}
	return b.Bytes(), nil
}
