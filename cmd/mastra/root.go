package main

import "github.com/spf13/cobra"

// rootCmd is `mastra`. Commands register on it with rootCmd.AddCommand in
// their file's init (dev, start, init); main adds `api`.
var rootCmd = newRootCommand()

func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "mastra",
		Short: "Develop, run and call Mastra applications written in Go",
		// execute prints errors itself (commander's "error: ..." form) and
		// picks the exit code.
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetFlagErrorFunc(flagError)
	return root
}
