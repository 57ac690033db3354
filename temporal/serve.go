package temporal

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"strings"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"

	"github.com/gomastra/mastra/serve"
)

// ServeOption makes an app of serve.Main run its agents on Temporal
// when its engine setting (-engine, MASTRA_ENGINE) is
// temporal://host:port/namespace: the server starts each run as a
// workflow and reads its chunks from the run's log, and `myapp worker`
// (same settings) runs a worker of those workflows. Both build the app
// with the same main, so the registry is one. The storage must be one
// the server and the workers share (PostgreSQL, or one SQLite file on
// one machine).
func ServeOption(opts Options) serve.Option {
	return serve.WithExtension(serve.Extension{
		Name:   "Temporal",
		Engine: "temporal",
		Mount:  mount,
		Mode:   "worker",
		RunMode: func(ctx context.Context, app serve.App, _ io.Reader, _ io.Writer) error {
			return runWorker(ctx, app, opts)
		},
	})
}

// Endpoint is a parsed temporal:// engine URL.
type Endpoint struct {
	HostPort, Namespace, TaskQueue string
}

// ParseEngine parses temporal://host:port/namespace[?taskQueue=name]
// (namespace "default" and task queue DefaultTaskQueue when left out).
func ParseEngine(raw string) (Endpoint, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "temporal" || u.Host == "" {
		return Endpoint{}, fmt.Errorf("temporal: engine %q: want temporal://host:port/namespace", raw)
	}
	e := Endpoint{HostPort: u.Host, Namespace: strings.Trim(u.Path, "/"), TaskQueue: u.Query().Get("taskQueue")}
	if e.Namespace == "" {
		e.Namespace = "default"
	}
	if e.TaskQueue == "" {
		e.TaskQueue = DefaultTaskQueue
	}
	return e, nil
}

// dial connects to the engine the app is served with.
func dial(app serve.App) (client.Client, Endpoint, error) {
	e, err := ParseEngine(app.Config.Engine)
	if err != nil {
		return nil, e, err
	}
	c, err := client.Dial(client.Options{HostPort: e.HostPort, Namespace: e.Namespace, Logger: log.NewStructuredLogger(app.Env.Logger)})
	if err != nil {
		return nil, e, fmt.Errorf("temporal: %s: %w", app.Config.Engine, err)
	}
	return c, e, nil
}

// mount, on a server whose engine is Temporal, has every agent launch
// its runs there.
func mount(app serve.App) (*serve.Mount, error) {
	if app.Config.Engine == "" {
		return nil, nil
	}
	c, e, err := dial(app)
	if err != nil {
		return nil, err
	}
	if err := NewClient(c, e.TaskQueue, app.Mastra).UseLaunchers(); err != nil {
		c.Close()
		return nil, err
	}
	return &serve.Mount{
		Summary: func(string) string {
			return fmt.Sprintf("Engine  Temporal %s, namespace %s, task queue %s", e.HostPort, e.Namespace, e.TaskQueue)
		},
		Close: c.Close,
	}, nil
}

// runWorker runs a worker of the app's agents until ctx ends.
func runWorker(ctx context.Context, app serve.App, opts Options) error {
	if app.Config.Engine == "" {
		return fmt.Errorf("temporal: the worker needs the engine: -engine temporal://host:port/namespace (or MASTRA_ENGINE)")
	}
	c, e, err := dial(app)
	if err != nil {
		return err
	}
	defer c.Close()
	w, err := NewWorker(c, e.TaskQueue, app.Mastra, opts)
	if err != nil {
		return err
	}
	if err := w.Start(); err != nil {
		return fmt.Errorf("temporal: worker: %w", err)
	}
	app.Env.Logger.Info("temporal: worker running", "hostPort", e.HostPort, "namespace", e.Namespace, "taskQueue", e.TaskQueue)
	<-ctx.Done()
	w.Stop()
	return nil
}
