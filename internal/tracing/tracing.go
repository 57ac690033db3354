// Package tracing answers one question for gomastra's instrumentation:
// can anything record a span?
package tracing

import (
	"reflect"

	"go.opentelemetry.io/otel"
)

// Unconfigured reports whether the global tracer provider is still
// OpenTelemetry's default, whose spans are all no-ops, so that hot paths
// can skip making spans. Recognising the default by its type name is safe
// both ways: should OpenTelemetry rename it, this says false and spans are
// simply always made.
func Unconfigured() bool {
	return reflect.TypeOf(otel.GetTracerProvider()).String() == "*global.tracerProvider"
}
