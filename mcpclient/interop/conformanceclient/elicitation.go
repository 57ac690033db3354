package main

import (
	"context"
	"strings"

	"github.com/gomastra/mastra/mcpclient"
)

// The elicitation scenarios' server asks the client, during a tool call,
// for a form it should accept as it is: the client answers accept with no
// fields filled in, and the requested schema's defaults fill them.
func init() {
	scenarioSetups = append(scenarioSetups, func(scenario string, _ *mcpclient.Config, server *mcpclient.ServerConfig) error {
		if !strings.HasPrefix(scenario, "elicitation-") {
			return nil
		}
		server.ElicitationHandler = func(context.Context, *mcpclient.ElicitationRequest) (*mcpclient.ElicitationResponse, error) {
			return &mcpclient.ElicitationResponse{Action: mcpclient.ElicitationAccept}, nil
		}
		return nil
	})
}
