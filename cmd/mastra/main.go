// Command mastra is the gomastra CLI: `mastra dev`, `mastra start`,
// `mastra init`, and `mastra api`, which calls a running Mastra server's
// HTTP API and prints JSON exactly as the Mastra (Node.js) CLI does.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"

	"github.com/spf13/cobra"
)

func main() {
	rootCmd.AddCommand(newAPICommand(newAPIConfig(os.Getenv)))
	os.Exit(execute(context.Background(), rootCmd, os.Args[1:], os.Stdout, os.Stderr))
}

// run is the CLI without the process: a fresh `mastra` command holding
// `api`, run on args (without the program name), writing to stdout and
// stderr, reading the environment through getenv. It returns the exit code.
func run(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	return runAPI(context.Background(), newAPIConfig(getenv), args, stdout, stderr)
}

// runAPI is run with a given api configuration (tests point the default
// server elsewhere).
func runAPI(ctx context.Context, cfg *apiConfig, args []string, stdout, stderr io.Writer) int {
	root := newRootCommand()
	root.AddCommand(newAPICommand(cfg))
	return execute(ctx, root, args, stdout, stderr)
}

var unknownRootCommand = regexp.MustCompile(`^unknown command "([^"]*)" for "`)

// execute runs root and turns its outcome into an exit code: 0 on success;
// for an error with an ExitCode method (a command that already reported its
// failure, or an *exec.ExitError from a child process) its code, printing
// nothing; 1 for anything else, printed as "error: <message>" on stderr.
func execute(ctx context.Context, root *cobra.Command, args []string, stdout, stderr io.Writer) int {
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	var usage usageError
	if errors.As(err, &usage) {
		_, _ = fmt.Fprintln(stderr, "error: "+usage.msg)
		return 1
	}
	var coded interface{ ExitCode() int }
	if errors.As(err, &coded) {
		if code := coded.ExitCode(); code > 0 {
			return code
		}
		return 1
	}
	if m := unknownRootCommand.FindStringSubmatch(err.Error()); m != nil {
		var names []string
		for _, c := range root.Commands() {
			if !c.Hidden {
				names = append(names, c.Name())
			}
		}
		err = unknownCommand(append(names, "help"), m[1])
	}
	_, _ = fmt.Fprintln(stderr, "error: "+err.Error())
	return 1
}
