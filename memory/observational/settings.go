package observational

import "encoding/json"

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

// recordConfig is the record's config: the settings as JSON values.
func (p *Processor) recordConfig() map[string]any {
	raw, err := json.Marshal(p.Settings())
	if err != nil {
		return map[string]any{}
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return map[string]any{}
	}
	return m
}
