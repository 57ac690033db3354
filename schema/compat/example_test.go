package compat_test

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/schema/compat"
)

func ExampleApply() {
	min, max := 1.0, 14.0
	in := &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"city": {Type: "string", Description: "City name"},
			"days": {Type: "integer", Minimum: &min, Maximum: &max},
		},
		PropertyOrder: []string{"city", "days"},
		Required:      []string{"city"},
	}

	out, layer := compat.Apply(in, compat.Model{Provider: "openai.chat", ModelID: "gpt-4o"})
	b, _ := compat.Marshal(out)
	var pretty bytes.Buffer
	json.Indent(&pretty, b, "", "  ")
	fmt.Println(layer)
	fmt.Println(pretty.String())

	// The model may now answer {"city": "Oslo", "days": null}; RestoreOptional
	// turns that back into what the original schema accepts.
	answer := map[string]any{"city": "Oslo", "days": nil}
	fmt.Println(compat.RestoreOptional(out, answer))
	// Output:
	// openai
	// {
	//   "type": "object",
	//   "$schema": "http://json-schema.org/draft-07/schema#",
	//   "required": [
	//     "city",
	//     "days"
	//   ],
	//   "x-optional": [
	//     "days"
	//   ],
	//   "properties": {
	//     "city": {
	//       "type": "string",
	//       "description": "City name"
	//     },
	//     "days": {
	//       "description": "constraints: greater than or equal to 1, lower than or equal to 14",
	//       "anyOf": [
	//         {
	//           "type": "integer",
	//           "description": "constraints: greater than or equal to 1, lower than or equal to 14"
	//         },
	//         {
	//           "type": "null"
	//         }
	//       ]
	//     }
	//   },
	//   "additionalProperties": false
	// }
	// map[city:Oslo]
}
