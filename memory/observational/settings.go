package observational

// Settings are what Mastra's GET /memory/config reports of an agent's
// observational memory (its observationalMemory field), under Mastra's
// names: the fields Mastra leaves undefined are omitted.
type Settings struct {
	Enabled bool  `json:"enabled"`
	Scope   Scope `json:"scope,omitempty"`
	// MessageTokens and ObservationTokens are the observation and
	// reflection thresholds.
	MessageTokens     int `json:"messageTokens,omitempty"`
	ObservationTokens int `json:"observationTokens,omitempty"`
	// ObservationModel and ReflectionModel name the observer's and the
	// reflector's model as "provider/model" (Mastra's formatModelName).
	ObservationModel string `json:"observationModel,omitempty"`
	ReflectionModel  string `json:"reflectionModel,omitempty"`
}

// Settings returns the processor's settings, defaults resolved.
func (p *Processor) Settings() Settings {
	name := modelName(p.cfg.Model.Provider(), p.cfg.Model.ModelID())
	return Settings{
		Enabled: true, Scope: p.cfg.Scope,
		MessageTokens: p.cfg.MessageTokens, ObservationTokens: p.cfg.ObservationTokens,
		ObservationModel: name, ReflectionModel: name,
	}
}

// modelName is Mastra's formatModelName.
func modelName(provider, id string) string {
	switch {
	case id == "":
		return "(unknown)"
	case provider == "":
		return id
	}
	return provider + "/" + id
}

// recordConfig is the record's config, shaped as Mastra's
// ({observation, reflection, scope}); buffering fields are left out when
// buffering is off, as Mastra leaves them undefined.
func (p *Processor) recordConfig() map[string]any {
	name := modelName(p.cfg.Model.Provider(), p.cfg.Model.ModelID())
	obs := map[string]any{"model": name, "messageTokens": p.cfg.MessageTokens,
		"modelSettings": map[string]any{"temperature": 0.3, "maxOutputTokens": 100_000}}
	if p.buf.on() {
		obs["bufferTokens"], obs["bufferActivation"], obs["blockAfter"] = p.buf.tokens, p.buf.activation, p.buf.blockAfter
	}
	refl := map[string]any{"model": name, "observationTokens": p.cfg.ObservationTokens,
		"modelSettings": map[string]any{"temperature": 0, "maxOutputTokens": 100_000}}
	if p.buf.reflecting() {
		refl["bufferActivation"], refl["blockAfter"] = p.buf.reflActivation, p.buf.reflBlockAfter
	}
	return map[string]any{"observation": obs, "reflection": refl, "scope": string(p.cfg.Scope)}
}
