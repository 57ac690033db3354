package tools

import "context"

// NeedsApproval reports whether this call must wait for a person's
// approval. A tool with a NeedsApproval function decides per call, and its
// answer is authoritative (it overrides RequireApproval and any run-wide
// setting); without one, the static RequireApproval flag answers. input is
// the call's decoded JSON arguments (or the tool's In); rc may be nil.
// Approval itself is granted only through the resume API, never by the
// model.
func (t *Tool) NeedsApproval(ctx context.Context, input any, rc *RequestContext) (bool, error) {
	if t.needsApproval == nil {
		return t.requireApproval, nil
	}
	if rc == nil {
		rc = NewRequestContext(nil)
	}
	return t.needsApproval(ctx, input, rc)
}
