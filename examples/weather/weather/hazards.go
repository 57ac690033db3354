package weather

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gomastra/mastra/tools"
)

// HazardsID is the hazards tool's id.
const HazardsID = "hazards-tool"

// Hazard types ([Hazard].Type), in the order a result lists them.
const (
	HazardThunderstorm  = "thunderstorm"
	HazardWind          = "wind"
	HazardPrecipitation = "precipitation"
	HazardUV            = "uv"
	HazardHeat          = "heat"
	HazardCold          = "cold"
	HazardVisibility    = "visibility"
)

// Severities ([Hazard].Severity).
const (
	SeverityModerate = "moderate"
	SeveritySevere   = "severe"
)

// The thresholds [NewHazardsTool] applies to wttr.in's current conditions
// (metric units). A value at or beyond a threshold is a hazard of that
// severity.
const (
	// windspeedKmph: 50 km/h starts Beaufort force 7 (near gale), 75 km/h
	// force 9 (strong gale).
	windModerateKmph = 50
	windSevereKmph   = 75
	// precipMM over the observation (about an hour): 7.6 mm/h is the
	// American Meteorological Society's "heavy rain", 50 mm/h the UK Met
	// Office's "violent rain".
	precipModerateMM = 7.6
	precipSevereMM   = 50
	// FeelsLikeC in the heat: the US National Weather Service's heat
	// index bands, "extreme caution" from 32 °C (90 °F), "danger" from
	// 39 °C (103 °F).
	heatModerateC = 32
	heatSevereC   = 39
	// FeelsLikeC in the cold: Environment Canada's wind chill bands, risk
	// of hypothermia on long exposure from -10 °C, frostbite within
	// minutes from -28 °C.
	coldModerateC = -10
	coldSevereC   = -28
	// uvIndex: the WHO's "high" from 6, "very high" from 8.
	uvModerate = 6
	uvSevere   = 8
	// visibility in km: wttr.in reports whole kilometres, and fog is
	// visibility under 1 km (WMO), so 1 km or less is a hazard.
	visibilityModerateKm = 1
)

// HazardsOutput is the hazards tool's output.
type HazardsOutput struct {
	// Location is the location asked for, as given.
	Location string `json:"location"`
	// Hazards are the hazards found, in the order of the Hazard*
	// constants; empty (never null) when there are none.
	Hazards []Hazard `json:"hazards"`
}

// Hazard is one potential weather hazard. Its schema tags make the
// output schema list the types and severities as enums; the tool's output
// is validated against it (a mismatch would be a bug, reported as a
// validation error result).
type Hazard struct {
	// Type is one of the Hazard* constants.
	Type string `json:"type" schema:"enum=thunderstorm|wind|precipitation|uv|heat|cold|visibility"`
	// Severity is SeverityModerate or SeveritySevere.
	Severity string `json:"severity" schema:"enum=moderate|severe"`
	// Description says what was observed, with its value.
	Description string `json:"description"`
}

// HazardsTool is the guide's hazardsTool, querying [DefaultBaseURL] with a
// client whose timeout is [DefaultTimeout]. It is safe for concurrent use.
var HazardsTool = NewHazardsTool(DefaultBaseURL, nil)

// NewHazardsTool returns the hazards tool: given a location, it fetches
// the same wttr.in j1 answer as the weather tool (same service, same
// request, same errors; see [NewWeatherTool]) and lists the potential
// hazards its current conditions show:
//
//   - thunderstorm: the weather description mentions thunder (wttr.in's
//     "Thundery outbreaks possible", "... with thunder"); severe when it
//     also says "heavy".
//   - wind: windspeedKmph from 50 km/h (Beaufort 7, near gale); severe
//     from 75 km/h (Beaufort 9, strong gale).
//   - precipitation: precipMM from 7.6 mm (heavy rain, AMS); severe from
//     50 mm (violent rain, Met Office).
//   - heat: FeelsLikeC (temp_C when absent) from 32 °C; severe from 39 °C
//     (NWS heat index "extreme caution" and "danger").
//   - cold: FeelsLikeC (temp_C when absent) at or below -10 °C; severe at
//     or below -28 °C (Environment Canada wind chill bands).
//   - uv: uvIndex from 6 (WHO "high"); severe from 8 ("very high").
//   - visibility: visibility at or below 1 km (fog, WMO), moderate.
//
// A field the answer lacks is not checked; one that is present but not a
// number is a tool error wrapping [ErrMalformedResponse]. The input is
// [Input], validated as the weather tool's; the output is
// [HazardsOutput], whose schema lists the hazard types and severities as
// enums.
func NewHazardsTool(baseURL string, client *http.Client) *tools.Tool {
	svc := newService(baseURL, client)
	return tools.New(tools.Config[Input, HazardsOutput]{
		ID:          HazardsID,
		Description: "Lists potential weather hazards (storms, strong wind, heavy precipitation, heat, cold, UV, poor visibility) for a location",
		Execute: func(ctx tools.Context, in Input) (HazardsOutput, error) {
			obs, err := svc.current(ctx, in.Location)
			if err != nil {
				return HazardsOutput{}, err
			}
			hazards, err := obs.hazards()
			if err != nil {
				return HazardsOutput{}, err
			}
			return HazardsOutput{Location: in.Location, Hazards: hazards}, nil
		},
	})
}

// hazards applies the thresholds of [NewHazardsTool] to o.
func (o observation) hazards() ([]Hazard, error) {
	hazards := []Hazard{}
	add := func(typ, severity, format string, args ...any) {
		hazards = append(hazards, Hazard{Type: typ, Severity: severity, Description: fmt.Sprintf(format, args...)})
	}
	// level is the severity of v against moderate and severe thresholds
	// (upward, or downward when below is set); "" is no hazard.
	level := func(v, moderate, severe float64, below bool) string {
		if below {
			v, moderate, severe = -v, -moderate, -severe
		}
		switch {
		case v >= severe:
			return SeveritySevere
		case v >= moderate:
			return SeverityModerate
		}
		return ""
	}

	if desc := strings.ToLower(o.conditions); strings.Contains(desc, "thunder") {
		sev := SeverityModerate
		if strings.Contains(desc, "heavy") {
			sev = SeveritySevere
		}
		add(HazardThunderstorm, sev, "Thunderstorms: %s", strings.TrimSpace(o.conditions))
	}

	for _, m := range []struct {
		field, raw       string
		moderate, severe float64
		hazard, format   string
	}{
		{"windspeedKmph", o.raw.WindspeedKmph, windModerateKmph, windSevereKmph, HazardWind, "Strong wind: %s km/h"},
		{"precipMM", o.raw.PrecipMM, precipModerateMM, precipSevereMM, HazardPrecipitation, "Heavy precipitation: %s mm"},
		{"uvIndex", o.raw.UVIndex, uvModerate, uvSevere, HazardUV, "High UV index: %s"},
	} {
		v, ok, err := o.number(m.field, m.raw)
		if err != nil {
			return nil, err
		}
		if sev := level(v, m.moderate, m.severe, false); ok && sev != "" {
			add(m.hazard, sev, m.format, num(v))
		}
	}

	feels, ok, err := o.number("FeelsLikeC", o.raw.FeelsLikeC)
	if err != nil {
		return nil, err
	}
	if !ok {
		feels = o.tempC
	}
	if sev := level(feels, heatModerateC, heatSevereC, false); sev != "" {
		add(HazardHeat, sev, "Heat: feels like %s °C", num(feels))
	}
	if sev := level(feels, coldModerateC, coldSevereC, true); sev != "" {
		add(HazardCold, sev, "Cold: feels like %s °C", num(feels))
	}

	vis, ok, err := o.number("visibility", o.raw.Visibility)
	if err != nil {
		return nil, err
	}
	if ok && vis <= visibilityModerateKm {
		add(HazardVisibility, SeverityModerate, "Poor visibility: %s km", num(vis))
	}
	return hazards, nil
}

// num formats v as wttr.in would: no trailing zeros.
func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
