package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// scaffoldWriter writes the new project's files, never over an existing
// one, and remembers what it created so that a failed init can take it
// back.
type scaffoldWriter struct {
	root   string
	stdout io.Writer
	// created are the files and directories it made, in order.
	created []string
	// left are those undo could not remove.
	left []string
}

// write creates root/path (and its missing directories) with content.
func (w *scaffoldWriter) write(path string, content []byte) error {
	full := filepath.Join(w.root, filepath.FromSlash(path))
	if err := w.mkdirs(filepath.Dir(full)); err != nil {
		return fmt.Errorf("init: %w", err)
	}
	f, err := os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	w.created = append(w.created, full)
	if _, err := f.Write(content); err != nil {
		f.Close()
		return fmt.Errorf("init: writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("init: writing %s: %w", path, err)
	}
	fmt.Fprintf(w.stdout, "  created %s\n", path)
	return nil
}

// mkdirs makes dir and its missing parents, remembering each one made.
func (w *scaffoldWriter) mkdirs(dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := w.mkdirs(filepath.Dir(dir)); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	w.created = append(w.created, dir)
	return nil
}

// undo removes what the writer created, newest first (directories only
// when empty: go may have added files, which are then left).
func (w *scaffoldWriter) undo() {
	for i := len(w.created) - 1; i >= 0; i-- {
		if err := os.Remove(w.created[i]); err != nil && !errors.Is(err, fs.ErrNotExist) {
			w.left = append(w.left, w.created[i])
		}
	}
	w.created = nil
}

// undoReport says, after undo, what is left in dir.
func (w *scaffoldWriter) undoReport(dir string) string {
	if len(w.left) == 0 {
		return "The files init wrote in " + dir + " are removed."
	}
	rel := make([]string, len(w.left))
	for i, p := range w.left {
		if r, err := filepath.Rel(w.root, p); err == nil {
			p = r
		}
		rel[i] = p
	}
	return "init removed what it wrote in " + dir + " except: " + strings.Join(rel, ", ")
}
