package weather_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/gomastra/mastra/examples/weather/weather"
	"github.com/gomastra/mastra/tools"
)

// The example points the tool at a local stand-in for wttr.in; in a
// program, use weather.WeatherTool or NewWeatherTool("https://wttr.in", nil).
func ExampleNewWeatherTool() {
	wttr := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// GET /San%20Francisco?format=j1, answered in wttr.in's j1 shape.
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"current_condition":[{"temp_C":"14","humidity":"77",
			"weatherDesc":[{"value":"Partly cloudy"}],"windspeedKmph":"15"}]}`)
	}))
	defer wttr.Close()

	tool := weather.NewWeatherTool(wttr.URL, wttr.Client())
	res, err := tool.Execute(context.Background(),
		json.RawMessage(`{"location":"San Francisco"}`),
		&tools.Invocation{ToolCallID: "call-1"})
	if err != nil {
		fmt.Println("tool error:", err)
		return
	}
	out, _ := res.JSON()
	fmt.Println(string(out))

	// Input that does not match the schema is a result the model can read
	// and correct, not an error; Execute's function is not called.
	res, _ = tool.Execute(context.Background(), json.RawMessage(`{"location":5}`), nil)
	fmt.Println(res.ValidationError().Message)
	// Output:
	// {"location":"San Francisco","temperatureCelsius":14,"conditions":"Partly cloudy"}
	// Tool input validation failed for weather-tool. Please fix the following errors and try again:
	// - location: Invalid input: expected string, received number
	//
	// Provided arguments: {
	//   "location": 5
	// }
}

// The input schema the model is given, inferred from weather.Input.
func Example_inputSchema() {
	b, _ := json.MarshalIndent(weather.WeatherTool.InputSchema().JSONSchema(), "", "  ")
	fmt.Println(string(b))
	// Output:
	// {
	//   "type": "object",
	//   "properties": {
	//     "location": {
	//       "type": "string",
	//       "description": "City name, e.g. San Francisco"
	//     }
	//   },
	//   "required": [
	//     "location"
	//   ],
	//   "additionalProperties": false
	// }
}
