package wire

import "github.com/gomastra/mastra/internal/zodschema"

// SortSchema puts the keywords of the JSON Schema v (an *Object; any
// other value is left alone) and of every schema below it in the order
// Zod writes them (zodschema.SortMembers, stable). The member order of
// property maps ("properties", "$defs", ...) is kept.
func SortSchema(v any) {
	o, ok := v.(*Object)
	if !ok {
		return
	}
	zodschema.SortMembers(o.Keys, o.Vals)
	for i, k := range o.Keys {
		EachSubschema(k, o.Vals[i], SortSchema)
	}
}

// EachSubschema calls f on each schema held by v, the value of the
// keyword k in a schema: the member values of a property map, the
// elements of a schema list, or v itself (zodschema.Holding). The schemas
// passed to f may be any JSON value (true, false, ...).
func EachSubschema(k string, v any, f func(any)) {
	obj, isObj := v.(*Object)
	list, isList := v.([]any)
	switch zodschema.Holding(k, isObj, isList) {
	case zodschema.HoldsMap:
		for _, sub := range obj.Vals {
			f(sub)
		}
	case zodschema.HoldsList:
		for _, sub := range list {
			f(sub)
		}
	case zodschema.HoldsOne:
		f(v)
	}
}
