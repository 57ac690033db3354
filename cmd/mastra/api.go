package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/spf13/cobra"
)

// apiConfig is what `mastra api` takes from its surroundings. Tests replace
// the default server URL so that nothing dials localhost:4111.
type apiConfig struct {
	getenv       func(string) string
	localURL     string        // the server used without --url: http://localhost:4111
	probeTimeout time.Duration // longest wait for the local server's answer: 1 s
	client       *http.Client  // nil: a client that ignores proxy environment variables
}

func newAPIConfig(getenv func(string) string) *apiConfig {
	return &apiConfig{getenv: getenv, localURL: "http://localhost:4111", probeTimeout: time.Second}
}

// apiBuilder builds the `mastra api` command tree; opts receives the global
// flags of the run.
type apiBuilder struct {
	cfg  *apiConfig
	opts globalOptions
	meta map[*cobra.Command]*commandMeta
}

// commandMeta is what --help prints about a command, in definition order
// (cobra sorts its own list of subcommands).
type commandMeta struct {
	desc     *descriptor // nil for groups
	children []*cobra.Command
	options  []optionHelp
}

// optionHelp is one line of the Options section.
type optionHelp struct {
	flags, description string
}

// newAPICommand returns `mastra api`: agent, workflow, tool, mcp, thread
// and memory commands that call a Mastra server's HTTP API and print JSON. Output,
// errors, exit codes and help follow the Mastra CLI (`mastra api` of the
// mastra npm package): success is {"data": ...} on stdout and exit code 0;
// failure is {"error": {"code", "message", "details"}} on stderr and exit
// code 1.
func newAPICommand(cfg *apiConfig) *cobra.Command {
	b := &apiBuilder{cfg: cfg, meta: map[*cobra.Command]*commandMeta{}}
	api := &cobra.Command{
		Use:   "api",
		Short: "Call Mastra APIs",
		Args:  cobra.ArbitraryArgs,
	}
	api.RunE = b.runGroup
	flags := api.PersistentFlags()
	flags.StringVar(&b.opts.url, "url", "", "target Mastra server URL")
	flags.StringVar(&b.opts.prefix, "server-api-prefix", "",
		"API route prefix of the Mastra server (default: /api; also honors MASTRA_API_PREFIX)")
	flags.StringArrayVar(&b.opts.headers, "header", nil, "custom HTTP header (repeatable)")
	flags.StringVar(&b.opts.timeout, "timeout", "", "client-side request timeout")
	flags.BoolVar(&b.opts.pretty, "pretty", false, "pretty-print JSON output")
	for name, spec := range map[string]string{
		"url":               "--url <url>",
		"server-api-prefix": "--server-api-prefix <serverApiPrefix>",
		"header":            "--header <header>",
		"timeout":           "--timeout <ms>",
		"pretty":            "--pretty",
	} {
		_ = flags.SetAnnotation(name, commanderFlagsKey, []string{spec})
	}
	b.meta[api] = &commandMeta{options: []optionHelp{
		{"--url <url>", "target Mastra server URL"},
		{"--server-api-prefix <serverApiPrefix>", "API route prefix of the Mastra server (default: /api; also honors MASTRA_API_PREFIX)"},
		{"--header <header>", "custom HTTP header (repeatable) (default: [])"},
		{"--timeout <ms>", "client-side request timeout"},
		{"--pretty", "pretty-print JSON output (default: false)"},
	}}
	api.SetHelpFunc(b.helpFunc)
	api.SetFlagErrorFunc(flagError)

	b.addAgentCommands(api)
	b.addWorkflowCommands(api)
	b.addToolCommands(api)
	b.addMCPCommands(api)
	b.addThreadCommands(api)
	b.addMemoryCommands(api)
	return api
}

// group adds a command that only holds subcommands.
func (b *apiBuilder) group(parent *cobra.Command, name, description string) *cobra.Command {
	cmd := &cobra.Command{Use: name, Short: description, Args: cobra.ArbitraryArgs, RunE: b.runGroup}
	b.meta[cmd] = &commandMeta{}
	b.add(parent, cmd)
	return cmd
}

// leaf adds a command that calls route r.
func (b *apiBuilder) leaf(parent *cobra.Command, name string, r apiRoute, a actionSpec) {
	d := newDescriptor(groupPath(parent), name, r, a)
	maxArgs := len(d.positionals)
	if d.acceptsInput {
		maxArgs++
	}
	cmd := &cobra.Command{
		Use:   name,
		Short: d.description,
		Args:  tooManyArgs(maxArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			return b.runLeaf(cmd, d, args)
		},
	}
	m := &commandMeta{desc: d}
	if d.acceptsInput {
		cmd.Flags().Bool("schema", false, "print request schema for this command")
		_ = cmd.Flags().SetAnnotation("schema", commanderFlagsKey, []string{"--schema"})
		m.options = append(m.options, optionHelp{"--schema", "print request schema for this command"})
	}
	if d.toolErrorsFlag {
		// Not in the help: the help stays the Mastra CLI's, byte for byte;
		// docs/server-and-cli.md documents the flag.
		cmd.Flags().Bool(showToolErrorsFlag, false, showToolErrorsUsage)
	}
	b.meta[cmd] = m
	b.add(parent, cmd)
}

func (b *apiBuilder) add(parent, child *cobra.Command) {
	parent.AddCommand(child)
	b.meta[parent].children = append(b.meta[parent].children, child)
}

// groupPath is the command path below `api` ("workflow run").
func groupPath(cmd *cobra.Command) []string {
	var names []string
	for c := cmd; c != nil && c.Name() != "api"; c = c.Parent() {
		names = append([]string{c.Name()}, names...)
	}
	return names
}

// runGroup handles a group called without a known subcommand: help on
// stderr and exit code 1 without arguments, `help [command]`, or an
// unknown-command error.
func (b *apiBuilder) runGroup(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		b.writeHelp(cmd, cmd.ErrOrStderr())
		return exitError{1}
	}
	if args[0] == "help" {
		if len(args) == 1 {
			b.writeHelp(cmd, cmd.OutOrStdout())
			return nil
		}
		for _, c := range b.meta[cmd].children {
			if c.Name() == args[1] {
				b.writeHelp(c, cmd.OutOrStdout())
				return nil
			}
		}
		// commander shows the group's help as an error for an unknown name.
		b.writeHelp(cmd, cmd.ErrOrStderr())
		return exitError{1}
	}
	return unknownCommand(b.commandNames(cmd), args[0])
}

func (b *apiBuilder) commandNames(cmd *cobra.Command) []string {
	var names []string
	for _, c := range b.meta[cmd].children {
		names = append(names, c.Name())
	}
	return append(names, "help")
}

// runLeaf runs one API command and prints its result or error.
func (b *apiBuilder) runLeaf(cmd *cobra.Command, d *descriptor, args []string) error {
	opts := b.opts
	opts.prefixSet = cmd.Flags().Changed("server-api-prefix")
	if d.acceptsInput {
		opts.schema, _ = cmd.Flags().GetBool("schema")
	}
	if d.toolErrorsFlag {
		opts.showToolErrors, _ = cmd.Flags().GetBool(showToolErrorsFlag)
	}
	identity, input := splitArgs(d, args)
	if err := b.cfg.runDescriptor(cmd.Context(), cmd.OutOrStdout(), d, identity, input, &opts); err != nil {
		var ae *apiError
		if !errors.As(err, &ae) {
			ae = unreachable(err.Error())
		}
		writeJSON(cmd.ErrOrStderr(), ae.envelope(), opts.pretty)
		return exitError{1}
	}
	return nil
}

// runDescriptor is one `mastra api` command: resolve the target, then
// either print the --schema description or validate the input, call the
// route and print the normalised response.
func (c *apiConfig) runDescriptor(ctx context.Context, stdout io.Writer, d *descriptor, identity []string, inputText string, o *globalOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	t, err := c.resolveTarget(ctx, o)
	if err != nil {
		return err
	}
	if o.schema {
		// --schema describes the command; it needs no arguments.
		s, err := c.commandSchema(ctx, d, t)
		if err != nil {
			return err
		}
		writeJSON(stdout, s, o.pretty)
		return nil
	}
	input, err := parseInput(d, inputText)
	if err != nil {
		return err
	}
	params, err := resolvePathParams(d, identity, input)
	if err != nil {
		return err
	}
	timeoutMs := t.timeoutMs
	if d.defaultTimeoutMs > 0 && o.timeout == "" {
		timeoutMs = d.defaultTimeoutMs
	}
	resp, err := c.do(ctx, apiRequest{
		target:     t,
		timeoutMs:  timeoutMs,
		desc:       d,
		pathParams: params,
		input:      stripPathParams(input, params),
	})
	if err != nil {
		return err
	}
	response := normalizeResponse(resp, "", false)
	data := normalizeData(d, response)
	if o.showToolErrors {
		data = withToolErrors(data, response)
	}
	writeJSON(stdout, successEnvelope(data, d.list, d.shape), o.pretty)
	return nil
}
