package schema_test

import (
	"encoding/json"
	"fmt"

	"github.com/gomastra/mastra/schema"
)

// Order is a tool input whose constraints are struct tags.
type Order struct {
	Item     string   `json:"item" jsonschema:"what to order"`
	Quantity int      `json:"quantity" schema:"minimum=1,maximum=10"`
	Size     string   `json:"size" schema:"enum=small|large,default=small"`
	Email    string   `json:"email,omitempty" schema:"format=email"`
	Tags     []string `json:"tags,omitempty" schema:"maxItems=3,items.minLength=1"`
}

// The schema tag writes JSON Schema keywords; a value breaking them gets
// the issue Zod would give for the equivalent z.number().min(1).
func ExampleMustFor() {
	orders := schema.MustFor[Order]()
	served, _ := json.MarshalIndent(orders.JSONSchema().Properties["quantity"], "", "  ")
	fmt.Println(string(served))
	fmt.Println(orders.JSONSchema().Required)

	_, issues := orders.Validate(map[string]any{"item": "tea", "quantity": 0})
	for _, is := range issues {
		fmt.Printf("%s: %s\n", is.PathString(), is.Message)
	}
	out, _ := orders.Validate(map[string]any{"item": "tea", "quantity": 2})
	fmt.Println(out)
	// Output:
	// {
	//   "type": "integer",
	//   "minimum": 1,
	//   "maximum": 10
	// }
	// [item quantity]
	// quantity: Too small: expected number to be >=1
	// map[item:tea quantity:2 size:small]
}

// A tag that does not fit its field is an error naming the field.
func ExampleTagError() {
	type Bad struct {
		Name string `json:"name" schema:"minimum=1"`
	}
	_, err := schema.For[Bad]()
	fmt.Println(err)
	// Output:
	// schema: schema_test.Bad.Name: tag schema:"minimum=1": minimum applies to numbers, and the field's JSON type is string
}

// MustFromJSON compiles a program's own JSON Schema text.
func ExampleMustFromJSON() {
	units := schema.MustFromJSON([]byte(`{"enum":["metric","imperial"]}`))
	_, issues := units.Validate("kelvin")
	fmt.Println(issues[0].Message)
	// Output:
	// Invalid option: expected one of "metric"|"imperial"
}
