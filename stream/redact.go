package stream

// Redact returns c as Mastra's server sends it to clients: the request a
// step sent the model is not shown to clients, so step-start's request
// becomes {} (and moves last, as Mastra's redaction re-adds it), and
// step-finish and finish payloads lose metadata.request and every step's
// request. Other chunks are returned as they are. The chunk given is not
// modified.
func Redact(c Chunk) Chunk {
	switch p := c.Payload.(type) {
	case StepStartPayload:
		p.Request, p.redacted = map[string]any{}, true
		c.Payload = p
	case FinishPayload:
		p.Metadata.Request = nil
		steps := make([]StepRecord, len(p.Output.Steps))
		for i, s := range p.Output.Steps {
			s.Request = nil
			steps[i] = s
		}
		p.Output.Steps = steps
		c.Payload = p
	}
	return c
}
