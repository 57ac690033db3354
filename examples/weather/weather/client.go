package weather

import "github.com/gomastra/mastra/tools"

// UserLocationID is the user location tool's id.
const UserLocationID = "user-location"

// UserLocation is what the browser answers to the user location tool.
type UserLocation struct {
	Location string `json:"location" jsonschema:"City name of the user's location, e.g. San Francisco"`
}

// UserLocationTool is a client tool, as in the guide's "tools that run on
// the client": it has no Execute, because only the user's browser knows
// where the user is. Offer it to an agent for a run with
//
//	agent.WithClientTools(tools.Set{"userLocationTool": weather.UserLocationTool})
//
// When the model calls it, the run ends with finishReason "tool-calls" and
// no result for that call. The client then runs the tool (asks the
// browser), and sends a new request whose messages are the conversation so
// far, the assistant's tool call and a tool message with the call's
// result ({"location": ...}); that run continues from the result.
var UserLocationTool = tools.New(tools.Config[struct{}, UserLocation]{
	ID:          UserLocationID,
	Description: "Gets the user's current location from their browser",
})
