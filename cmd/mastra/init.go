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
	"runtime"
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
}

// scaffoldFile is one file `mastra init` writes: its path in the new
// project and the template it comes from.
type scaffoldFile struct {
	path, template string
}

// scaffoldFiles are the new project's files, in the order they are
// written (and listed).
var scaffoldFiles = []scaffoldFile{
	{"main.go", "main.go.tmpl"},
	{"tools/weather.go", "weather_tool.go.tmpl"},
	{"tools/weather_test.go", "weather_tool_test.go.tmpl"},
	{"agents/weather.go", "weather_agent.go.tmpl"},
	{"README.md", "README.md.tmpl"},
	{".gitignore", "gitignore.tmpl"},
}

// scaffoldData fills the templates.
type scaffoldData struct {
	Name, Module, Model string
}

func init() {
	var o initOptions
	c := &cobra.Command{
		Use:   "init [directory]",
		Short: "Create a new Mastra app in Go with the Tools guide's weather tool and agent",
		Long: "init writes a Go module into directory (default: the current directory, which must not hold\n" +
			"any of the files it writes): main.go serving the app with Mastra's API, tools/weather.go (the\n" +
			"guide's weather tool, with a test), agents/weather.go (the weather agent), a README and a\n" +
			".gitignore. Then it runs `go mod tidy` to fetch gomastra (skip with --no-install).",
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
	c.Flags().StringVar(&o.model, "model", "openai/gpt-5.6-sol", `the agent's default model, "provider/model"`)
	c.Flags().StringVar(&o.mastraPath, "mastra-path", "", "a local gomastra checkout to use instead of the published module (adds a replace directive)")
	c.Flags().BoolVar(&o.noInstall, "no-install", false, "do not run `go mod tidy`")
	rootCmd.AddCommand(c)
}

// modulePathRE is what init accepts as a module path: letters, digits
// and . _ - ~ / (no leading or trailing slash, no "..").
var modulePathRE = regexp.MustCompile(`^[A-Za-z0-9._~-]+(/[A-Za-z0-9._~-]+)*$`)

// initProject writes the new project into dir and, unless told not to,
// tidies its module. It refuses to overwrite any file.
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
	if !strings.Contains(o.model, "/") {
		return fmt.Errorf(`init: --model %q: want "provider/model", e.g. openai/gpt-5.6-sol`, o.model)
	}
	files := append([]scaffoldFile{{"go.mod", ""}}, scaffoldFiles...)
	for _, f := range files {
		if _, err := os.Lstat(filepath.Join(abs, f.path)); err == nil {
			return fmt.Errorf("init: %s already exists; init only creates new files (use another directory)", filepath.Join(dir, f.path))
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("init: %w", err)
		}
	}
	gomod, err := goModFile(module, o.mastraPath)
	if err != nil {
		return err
	}
	data := scaffoldData{Name: name, Module: module, Model: o.model}
	fmt.Fprintf(stdout, "Creating a Mastra app in %s\n", abs)
	if err := writeNew(abs, "go.mod", gomod, stdout); err != nil {
		return err
	}
	for _, f := range scaffoldFiles {
		b, err := renderScaffold(f, data)
		if err != nil {
			return err
		}
		if err := writeNew(abs, f.path, b, stdout); err != nil {
			return err
		}
	}
	if !o.noInstall {
		fmt.Fprintln(stdout, "Running go mod tidy (fetches gomastra and its dependencies)...")
		tidy := exec.CommandContext(ctx, "go", "mod", "tidy")
		tidy.Dir, tidy.Stdout, tidy.Stderr = abs, stderr, stderr
		if err := tidy.Run(); err != nil {
			return fmt.Errorf("init: go mod tidy in %s: %w (the files are written; run it again when fixed)", abs, err)
		}
	}
	fmt.Fprintf(stdout, "\nDone. Next:\n")
	if dir != "." {
		fmt.Fprintf(stdout, "  cd %s\n", dir)
	}
	if o.noInstall {
		fmt.Fprintln(stdout, "  go mod tidy")
	}
	fmt.Fprintf(stdout, "  mastra dev\n  mastra api tool execute weather-tool '{\"location\":\"San Francisco\"}'\n")
	return nil
}

// goModFile is the new module's go.mod: its path, the Go version this
// CLI was built with, and, with a local checkout, gomastra replaced by it.
func goModFile(module, mastraPath string) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "module %s\n\ngo %s\n", module, goVersion())
	if mastraPath != "" {
		abs, err := filepath.Abs(mastraPath)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(filepath.Join(abs, "go.mod")); err != nil {
			return nil, fmt.Errorf("init: --mastra-path %s: no go.mod there", mastraPath)
		}
		fmt.Fprintf(&b, "\nrequire github.com/gomastra/mastra v0.0.0\n\nreplace github.com/gomastra/mastra => %s\n", abs)
	}
	return b.Bytes(), nil
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

// writeNew creates root/path (and its directories) with content; it
// fails rather than overwrite.
func writeNew(root, path string, content []byte, stdout io.Writer) error {
	full := filepath.Join(root, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return fmt.Errorf("init: %w", err)
	}
	f, err := os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	if _, err := f.Write(content); err != nil {
		f.Close()
		return fmt.Errorf("init: writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("init: writing %s: %w", path, err)
	}
	fmt.Fprintf(stdout, "  created %s\n", path)
	return nil
}

// goVersion is the "go" line for the new module: the language version
// of the toolchain this CLI was built with ("1.26"), which gomastra
// itself requires at least.
func goVersion() string {
	v := strings.TrimPrefix(runtime.Version(), "go")
	if parts := strings.SplitN(v, ".", 3); len(parts) >= 2 {
		return parts[0] + "." + parts[1]
	}
	return "1.26"
}
