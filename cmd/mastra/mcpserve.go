package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"
)

func init() {
	var o appOptions
	var storageURL string
	c := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the Mastra app's tools, agents and workflows as an MCP server over stdio",
		Long: "mcp builds the Go main package given by --dir (default: the current directory) and runs it as an\n" +
			"MCP server on this process's stdin and stdout (the app's `mcp` mode, package serve): its tools under\n" +
			"their keys, agents as ask_<key>, workflows as run_<key>. Point an MCP client's stdio command at it,\n" +
			"e.g. {\"command\": \"mastra\", \"args\": [\"mcp\", \"--dir\", \"/path/to/app\"]}. Build output and logs go to stderr.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return serveMCP(ctx, o, storageURL, c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr())
		},
	}
	c.Flags().StringVar(&o.dir, "dir", ".", "the Go main package of the Mastra app")
	c.Flags().StringVar(&storageURL, "storage", "", "the app's storage (a SQLite file, :memory: or a postgres:// URL; default the app's)")
	rootCmd.AddCommand(c)
}

// serveMCP builds the app and runs it in its MCP mode with stdin and
// stdout as the protocol's, until the client closes stdin or ctx ends.
func serveMCP(ctx context.Context, o appOptions, storageURL string, stdin io.Reader, stdout, stderr io.Writer) error {
	tmp, err := os.MkdirTemp("", "mastra-mcp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "app")
	if err := build(ctx, o, bin, stderr); err != nil {
		return err
	}
	args := []string{"mcp"}
	if storageURL != "" {
		args = append(args, "-storage", storageURL)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = o.dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && ctx.Err() == nil {
		return fmt.Errorf("the app's MCP server ended: %w", err)
	}
	if ctx.Err() != nil {
		return nil
	}
	return err
}
