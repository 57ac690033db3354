package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/gomastra/mastra/model"
)

// rootModule is gomastra's module path.
const rootModule = "github.com/gomastra/mastra"

// providerPackage is the gomastra package whose Providers() the new app
// registers for its model.
type providerPackage struct {
	// ProviderImport is its import path; ProviderPackage its name.
	ProviderImport, ProviderPackage string
	// KeyEnv is the variable holding the provider's API key ("" when it
	// needs none).
	KeyEnv string
}

// providerOf is the provider package of a "provider/model" id.
func providerOf(modelID string) (providerPackage, error) {
	name, rest, ok := strings.Cut(modelID, "/")
	if !ok || name == "" || rest == "" {
		return providerPackage{}, fmt.Errorf(`init: --model %q: want "provider/model", e.g. openai/gpt-5.6-sol`, modelID)
	}
	var known []string
	for _, p := range model.ShippedProviders() {
		if p.Name == name {
			return providerPackage{ProviderImport: p.Package, ProviderPackage: path.Base(p.Package), KeyEnv: p.KeyEnv}, nil
		}
		known = append(known, p.Name)
	}
	return providerPackage{}, fmt.Errorf("init: --model %q: unknown provider %q (known: %s)", modelID, name, strings.Join(known, ", "))
}

// moduleOf is the directory of the checkout holding the module of
// package importPath (the nearest one with a go.mod), relative to the
// checkout.
func moduleOf(checkout, importPath string) (string, error) {
	rel := strings.TrimPrefix(importPath, rootModule+"/")
	for dir := rel; dir != "."; dir = path.Dir(dir) {
		if _, err := os.Stat(filepath.Join(checkout, filepath.FromSlash(dir), "go.mod")); err == nil {
			return dir, nil
		}
	}
	return "", fmt.Errorf("init: no module of %s in %s", importPath, checkout)
}

// gomastraSource is where the new module gets gomastra from: a local
// checkout (with why it was picked), else the published module at
// version ("" for the latest).
type gomastraSource struct {
	checkout, why string
	version       string
}

// pickSource picks the source: --mastra-path, else the checkout this
// CLI was built from, else the published module (this CLI's own version
// when it was installed from one).
func pickSource(o initOptions) (gomastraSource, error) {
	if o.mastraPath != "" {
		abs, err := filepath.Abs(o.mastraPath)
		if err != nil {
			return gomastraSource{}, err
		}
		if !isCheckout(abs) {
			return gomastraSource{}, fmt.Errorf("init: --mastra-path %s: not a gomastra checkout (no go.mod of %s there)", o.mastraPath, rootModule)
		}
		return gomastraSource{checkout: abs, why: "--mastra-path"}, nil
	}
	find := o.findCheckout
	if find == nil {
		find = builtFromCheckout
	}
	if dir := find(); dir != "" {
		return gomastraSource{checkout: dir, why: "the checkout this mastra was built from; --mastra-path picks another"}, nil
	}
	return gomastraSource{version: publishedVersion()}, nil
}

// builtFromCheckout is the gomastra checkout this binary was built from
// (go install ./cmd/mastra, go run), or "" when it was not or the
// checkout is gone.
func builtFromCheckout() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Main.Path != rootModule || bi.Main.Version != "(devel)" {
		return ""
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) { // -trimpath builds record no directory
		return ""
	}
	root := filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
	if !isCheckout(root) {
		return ""
	}
	return root
}

// publishedVersion is this binary's gomastra version when it was
// installed from the published module ("" otherwise).
func publishedVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Main.Path != rootModule || !strings.HasPrefix(bi.Main.Version, "v") {
		return ""
	}
	return bi.Main.Version
}

// isCheckout tells whether dir holds gomastra's root go.mod.
func isCheckout(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	first, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimSpace(first) == "module "+rootModule
}

// moduleFiles are the new module's go.mod and, with a checkout, its
// go.sum: the checkout's go.sum lines of the modules it uses, so that
// resolving them needs no checksum lookup (offline, or behind a proxy
// without the checksum database).
func moduleFiles(module string, src gomastraSource, p providerPackage) (gomod, gosum []byte, err error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "module %s\n\ngo %s\n", module, goVersion())
	switch {
	case src.checkout != "":
		dir, err := moduleOf(src.checkout, p.ProviderImport)
		if err != nil {
			return nil, nil, err
		}
		providerModule, providerDir := rootModule+"/"+dir, filepath.Join(src.checkout, filepath.FromSlash(dir))
		const pseudo = "v0.0.0-00010101000000-000000000000"
		fmt.Fprintf(&b, "\nrequire (\n\t%s %s\n\t%s %s\n)\n", rootModule, pseudo, providerModule, pseudo)
		fmt.Fprintf(&b, "\nreplace (\n\t%s => %s\n\t%s => %s\n)\n", rootModule, src.checkout, providerModule, providerDir)
		gosum, err = mergedSums(filepath.Join(src.checkout, "go.sum"), filepath.Join(providerDir, "go.sum"))
		if err != nil {
			return nil, nil, fmt.Errorf("init: the checkout's checksums: %w", err)
		}
	case src.version != "":
		fmt.Fprintf(&b, "\nrequire %s %s\n", rootModule, src.version)
	}
	return b.Bytes(), gosum, nil
}

// mergedSums is the sorted union of the lines of the go.sum files at
// paths.
func mergedSums(paths ...string) ([]byte, error) {
	seen := map[string]bool{}
	var lines []string
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if line := strings.TrimSpace(sc.Text()); line != "" && !seen[line] {
				seen[line] = true
				lines = append(lines, line)
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	slices.Sort(lines)
	return []byte(strings.Join(lines, "\n") + "\n"), nil
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
