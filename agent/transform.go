package agent

import (
	"encoding/json"

	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/transform"
)

// WithTransform sets the run's transform policy (Mastra's per-call
// transform option), which wins over Config.Transform.
func WithTransform(p *transform.Policy) Option {
	return func(o *runOptions) { o.transform = p }
}

// transformPolicy is the policy a run uses: its own, else the agent's.
func transformPolicy(o runOptions, a *Agent) *transform.Policy {
	return transform.SelectPolicy(o.transform, a.cfg.Transform, nil)
}

// transformMeta returns the chunk metadata of one tool phase (Mastra's
// toolPayloadTransform, see package tools/transform): the display and
// transcript entries of the run's policy and the tool's own transform, laid
// over the call's input-available entries for the later phases. Nil when
// neither applies; the payloads stay raw.
func (r *run) transformMeta(t *tools.Tool, tc transform.Context) map[string]any {
	if !r.transforms(t) {
		return nil
	}
	md := transform.ApplyAll(r.ctx, r.agent.cfg.Logger, r.policy, t.Transform(), tc)
	if tc.Phase != transform.PhaseInputDelta && tc.Phase != transform.PhaseInputAvailable {
		input := tc
		input.Phase = transform.PhaseInputAvailable
		input.Output, input.Error, input.SuspendPayload = nil, nil, nil
		md = transform.Merge(transform.ApplyAll(r.ctx, r.agent.cfg.Logger, r.policy, t.Transform(), input), md)
	}
	return transform.AttachMetadata(nil, md)
}

// transforms reports whether payloads of t have transforms to apply (the
// run's policy or the tool's own).
func (r *run) transforms(t *tools.Tool) bool {
	return t != nil && (r.policy != nil || t.Transform() != nil)
}

// decodedArgs is a call's arguments as transform functions see them.
func decodedArgs(raw json.RawMessage) any {
	var v any
	_ = json.Unmarshal(argsOrEmpty(raw), &v)
	return v
}
