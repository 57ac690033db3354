package main

import (
	"strings"

	"github.com/spf13/cobra"
)

// Workflow routes (@mastra/server), as the Mastra CLI's route metadata lists them.
var (
	routeListWorkflows = apiRoute{method: "GET", path: "/workflows", queryParams: []string{"partial"},
		shape: responseShape{kind: "record"}}
	routeGetWorkflow = apiRoute{method: "GET", path: "/workflows/:workflowId", shape: responseShape{kind: "single"}}
	routeStartAsync  = apiRoute{method: "POST", path: "/workflows/:workflowId/start-async", queryParams: []string{"runId"},
		bodyParams: []string{"initialState", "inputData", "perStep", "requestContext", "resourceId", "tracingOptions"},
		hasBody:    true, shape: responseShape{kind: "single"}}
	routeListRuns = apiRoute{method: "GET", path: "/workflows/:workflowId/runs",
		queryParams: []string{"fromDate", "limit", "offset", "page", "perPage", "resourceId", "status", "toDate"},
		shape:       responseShape{kind: "object-property", listProperty: "runs"}}
	routeGetRun = apiRoute{method: "GET", path: "/workflows/:workflowId/runs/:runId",
		queryParams: []string{"fields", "withNestedWorkflows"}, shape: responseShape{kind: "single"}}
	routeResumeAsync = apiRoute{method: "POST", path: "/workflows/:workflowId/resume-async", queryParams: []string{"runId"},
		bodyParams: []string{"forEachIndex", "perStep", "requestContext", "resumeData", "step", "tracingOptions"},
		hasBody:    true, shape: responseShape{kind: "single"}}
	routeCancelRun = apiRoute{method: "POST", path: "/workflows/:workflowId/runs/:runId/cancel",
		shape: responseShape{kind: "single"}}
)

// addWorkflowCommands adds `mastra api workflow list|get` and
// `mastra api workflow run start|list|get|resume|cancel`, the Mastra CLI's
// workflow commands. start and resume wait for the run to finish or suspend
// (the *-async routes), so their default timeout is 120 s instead of 30 s.
func (b *apiBuilder) addWorkflowCommands(api *cobra.Command) {
	workflow := b.group(api, "workflow", "List, inspect, and run workflows")
	b.leaf(workflow, "list", routeListWorkflows, actionSpec{description: "List available workflows", list: true})
	b.leaf(workflow, "get", routeGetWorkflow, actionSpec{description: "Get workflow details"})
	run := b.group(workflow, "run", "Manage workflow runs")
	b.leaf(run, "start", routeStartAsync, actionSpec{
		description:      "Start a workflow run",
		input:            inputModeOf(inputRequired),
		defaultTimeoutMs: 120_000,
		examples: []example{{"Start a workflow run",
			`mastra api workflow run start data-pipeline '{"inputData":{"source":"s3://bucket/data.csv"}}'`}},
	})
	b.leaf(run, "list", routeListRuns, actionSpec{description: "List workflow runs", input: inputModeOf(inputOptional), list: true})
	b.leaf(run, "get", routeGetRun, actionSpec{description: "Get workflow run details"})
	b.leaf(run, "resume", routeResumeAsync, actionSpec{
		description:      "Resume a suspended workflow run",
		input:            inputModeOf(inputRequired),
		positionals:      []string{"workflowId", "runId"},
		defaultTimeoutMs: 120_000,
		examples: []example{{"Resume a suspended workflow run. The run must currently be suspended.",
			`mastra api workflow run resume data-pipeline run_123 '{"resumeData":{"approved":true}}'`}},
	})
	b.leaf(run, "cancel", routeCancelRun, actionSpec{description: "Cancel a workflow run"})
}

// workflowStatuses maps the statuses servers report to the CLI's
// vocabulary (success, failed, cancelled, running, suspended).
var workflowStatuses = map[string]string{
	"completed": "success",
	"complete":  "success",
	"success":   "success",
	"succeeded": "success",
	"failed":    "failed",
	"failure":   "failed",
	"error":     "failed",
	"canceled":  "cancelled",
	"cancelled": "cancelled",
	"running":   "running",
	"pending":   "running",
	"suspended": "suspended",
	"waiting":   "suspended",
}

// normalizeWorkflowStatus rewrites the status of a run (and of the runs in
// its top-level arrays) as the Mastra CLI does for `workflow run` output.
// Unknown statuses are left alone.
func normalizeWorkflowStatus(v any) any {
	switch t := v.(type) {
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = normalizeWorkflowStatus(e)
		}
		return out
	case *jsObject:
		out := newObject()
		for _, k := range t.ownKeys() {
			val := t.vals[k]
			if arr, ok := val.([]any); ok {
				val = normalizeWorkflowStatus(arr)
			}
			out.set(k, val)
		}
		status, ok := t.vals["status"].(string)
		if !ok {
			return out
		}
		// The Mastra CLI looks the status up in a plain object literal, so
		// the two lowercase names it inherits from Object.prototype match too:
		// "constructor" yields a function (dropped by JSON.stringify) and
		// "__proto__" an empty object.
		switch lower := strings.ToLower(status); lower {
		case "constructor":
			out.del("status")
		case "__proto__":
			out.set("status", newObject())
		default:
			if s, ok := workflowStatuses[lower]; ok {
				out.set("status", s)
			}
		}
		return out
	}
	return v
}
