package model_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/model"
)

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal(%#v): %v", v, err)
	}
	return string(b)
}

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return v
}

var anthropicCache = map[string]any{"anthropic": map[string]any{"cacheControl": map[string]any{"type": "ephemeral"}}}

func TestMarshalJSON(t *testing.T) {
	withName := model.FileDataPart([]byte("%PDF"), "application/pdf")
	withName.Filename = "report.pdf"
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"text", model.TextOutput("hi"), `{"type":"text","value":"hi"}`},
		{"empty text keeps value", model.TextOutput(""), `{"type":"text","value":""}`},
		{"json object", model.JSONOutput(map[string]any{"a": 1}), `{"type":"json","value":{"a":1}}`},
		{"json null", model.JSONOutput(nil), `{"type":"json","value":null}`},
		{"error-text", model.ErrorTextOutput("boom"), `{"type":"error-text","value":"boom"}`},
		{"error-json", model.ErrorJSONOutput([]any{"x"}), `{"type":"error-json","value":["x"]}`},
		{"execution-denied no reason", model.ExecutionDeniedOutput(""), `{"type":"execution-denied"}`},
		{"execution-denied reason", model.ExecutionDeniedOutput("user said no"), `{"type":"execution-denied","reason":"user said no"}`},
		{"output providerOptions", model.ToolResultOutput{Type: "text", Value: "x", ProviderOptions: anthropicCache},
			`{"type":"text","value":"x","providerOptions":{"anthropic":{"cacheControl":{"type":"ephemeral"}}}}`},
		{"content drops output providerOptions", model.ToolResultOutput{Type: "content", Value: []model.ContentPart{}, ProviderOptions: anthropicCache},
			`{"type":"content","value":[]}`},
		{"content nil value", model.ToolResultOutput{Type: "content"}, `{"type":"content","value":[]}`},
		{"content no parts", model.ContentOutput(), `{"type":"content","value":[]}`},
		{"text part", model.TextPart("caption"), `{"type":"text","text":"caption"}`},
		{"empty text part keeps text", model.TextPart(""), `{"type":"text","text":""}`},
		{"image-url", model.ImageURLPart("https://x/y.png"), `{"type":"image-url","url":"https://x/y.png"}`},
		{"image-url mediaType", model.ContentPart{Type: "image-url", URL: "https://x/y", MediaType: "image/png"},
			`{"type":"image-url","url":"https://x/y","mediaType":"image/png"}`},
		{"image-data", model.ImageDataPart([]byte("hello"), "image/png"), `{"type":"image-data","data":"aGVsbG8=","mediaType":"image/png"}`},
		{"file-url", model.FileURLPart("https://x/r.pdf"), `{"type":"file-url","url":"https://x/r.pdf"}`},
		{"file-data", model.FileDataPart([]byte("%PDF"), "application/pdf"), `{"type":"file-data","data":"JVBERg==","mediaType":"application/pdf"}`},
		{"file-data filename", withName, `{"type":"file-data","data":"JVBERg==","mediaType":"application/pdf","filename":"report.pdf"}`},
		{"file-id", model.FileIDPart("file_1"), `{"type":"file-id","fileId":"file_1"}`},
		{"file-id by provider", model.FileIDPartByProvider(map[string]string{"openai": "f1", "anthropic": "f2"}),
			`{"type":"file-id","fileId":{"anthropic":"f2","openai":"f1"}}`},
		{"image-file-id", model.ImageFileIDPart("img_1"), `{"type":"image-file-id","fileId":"img_1"}`},
		{"image-file-id by provider", model.ImageFileIDPartByProvider(map[string]string{"openai": "i1"}), `{"type":"image-file-id","fileId":{"openai":"i1"}}`},
		{"media", model.MediaPart("aGk=", "image/png"), `{"type":"media","data":"aGk=","mediaType":"image/png"}`},
		{"custom", model.CustomPart(map[string]any{"openai": map[string]any{"kind": "x"}}), `{"type":"custom","providerOptions":{"openai":{"kind":"x"}}}`},
		{"custom bare", model.ContentPart{Type: "custom"}, `{"type":"custom"}`},
		{"part providerOptions", model.ImageURLPart("https://x").WithProviderOptions(anthropicCache),
			`{"type":"image-url","url":"https://x","providerOptions":{"anthropic":{"cacheControl":{"type":"ephemeral"}}}}`},
		{"foreign fields are not marshalled", model.ContentPart{Type: "text", Text: "t", URL: "u", Data: "d", MediaType: "m", Filename: "f", FileID: "i"},
			`{"type":"text","text":"t"}`},
		{"unknown part type marshals set fields", model.ContentPart{Type: "x-new", URL: "u"}, `{"type":"x-new","url":"u"}`},
		{"content output", model.ContentOutput(model.TextPart("a"), model.ImageURLPart("https://x")),
			`{"type":"content","value":[{"type":"text","text":"a"},{"type":"image-url","url":"https://x"}]}`},
		{"pointer", &model.ToolResultOutput{Type: "text", Value: "p"}, `{"type":"text","value":"p"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mustJSON(t, tt.in); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	named := model.FileDataPart([]byte("abc"), "text/plain")
	named.Filename = "a.txt"
	tests := []struct {
		name string
		in   model.ToolResultOutput
	}{
		{"text", model.TextOutput("hello")},
		{"text providerOptions", model.ToolResultOutput{Type: "text", Value: "x", ProviderOptions: anthropicCache}},
		{"json", model.JSONOutput(map[string]any{"a": 1.5, "b": []any{"x", nil, true}})},
		{"json null", model.JSONOutput(nil)},
		{"json string", model.JSONOutput("s")},
		{"error-text", model.ErrorTextOutput("bad")},
		{"error-json", model.ErrorJSONOutput(map[string]any{"code": "E"})},
		{"execution-denied", model.ExecutionDeniedOutput("nope")},
		{"execution-denied bare", model.ExecutionDeniedOutput("")},
		{"content all parts", model.ContentOutput(
			model.TextPart("t"),
			model.ImageURLPart("data:image/png;base64,AAAA"), // not normalised by a round trip
			model.ContentPart{Type: "image-url", URL: "https://x", MediaType: "image/webp"},
			model.ImageDataPart([]byte{1, 2, 3}, "image/gif"),
			model.ContentPart{Type: "image-data", Data: "AAAA"},
			model.ImageFileIDPart("i"),
			model.ImageFileIDPartByProvider(map[string]string{"openai": "a", "google": "b"}),
			model.FileURLPart("https://x/f"),
			named,
			model.FileIDPart("f"),
			model.FileIDPartByProvider(map[string]string{"openai": "c"}),
			model.MediaPart("AAAA", "audio/wav"),
			model.CustomPart(map[string]any{"p": map[string]any{"k": "v"}}),
			model.TextPart("x").WithProviderOptions(anthropicCache),
		)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := mustJSON(t, tt.in)
			var got model.ToolResultOutput
			if err := json.Unmarshal([]byte(b), &got); err != nil {
				t.Fatalf("Unmarshal(%s): %v", b, err)
			}
			if diff := cmp.Diff(tt.in, got); diff != "" {
				t.Errorf("round trip changed the value (-want +got):\n%s", diff)
			}
			if b2 := mustJSON(t, got); b2 != b {
				t.Errorf("re-marshal differs:\n%s\n%s", b, b2)
			}
		})
	}
}

func TestContentPartUnmarshal(t *testing.T) {
	var p model.ContentPart
	if err := json.Unmarshal([]byte(`{"type":"file-id","fileId":{"openai":"x"},"extra":1}`), &p); err != nil {
		t.Fatal(err)
	}
	want := model.FileIDPartByProvider(map[string]string{"openai": "x"})
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	err := json.Unmarshal([]byte(`{"type":"video"}`), &p)
	if !errors.Is(err, model.ErrInvalidToolResultOutput) {
		t.Errorf("unknown type: err = %v, want ErrInvalidToolResultOutput", err)
	}
	var parts []model.ContentPart
	if err := json.Unmarshal([]byte(`[{"type":"text","text":"a"},{"type":"image-url","url":"u"}]`), &parts); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]model.ContentPart{model.TextPart("a"), model.ImageURLPart("u")}, parts); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestNormalize(t *testing.T) {
	opts := map[string]any{"p": map[string]any{"keep": true}}
	named := model.ContentPart{Type: "file-data", Data: "aGVsbG8=", MediaType: "application/pdf", Filename: "r.pdf"}
	tests := []struct {
		name string
		in   model.ContentPart
		want model.ContentPart
	}{
		{"remote image-url untouched", model.ImageURLPart("https://example.com/radar.png").WithProviderOptions(anthropicCache),
			model.ImageURLPart("https://example.com/radar.png").WithProviderOptions(anthropicCache)},
		{"remote image-url keeps its mediaType", model.ContentPart{Type: "image-url", URL: "https://x", MediaType: "image/png"},
			model.ContentPart{Type: "image-url", URL: "https://x", MediaType: "image/png"}},
		{"file-url untouched", model.FileURLPart("https://example.com/report.pdf"), model.FileURLPart("https://example.com/report.pdf")},
		{"data-URI image-url to media with parsed mediaType", model.ImageURLPart("data:image/png;base64,abc123").WithProviderOptions(opts),
			model.ContentPart{Type: "media", Data: "data:image/png;base64,abc123", MediaType: "image/png", ProviderOptions: opts}},
		{"data-URI without parameters", model.ImageURLPart("data:image/gif,abc"),
			model.ContentPart{Type: "media", Data: "data:image/gif,abc", MediaType: "image/gif"}},
		{"data-URI without media type defaults", model.ImageURLPart("data:;base64,abc"),
			model.ContentPart{Type: "media", Data: "data:;base64,abc", MediaType: "image/jpeg"}},
		{"malformed data-URI defaults", model.ImageURLPart("data:image/png"),
			model.ContentPart{Type: "media", Data: "data:image/png", MediaType: "image/jpeg"}},
		{"author mediaType wins for data-URI", model.ContentPart{Type: "image-url", URL: "data:image/png;base64,abc123", MediaType: "image/webp"},
			model.ContentPart{Type: "media", Data: "data:image/png;base64,abc123", MediaType: "image/webp"}},
		{"DATA: prefix is not a data URI (case-sensitive, as Mastra)", model.ImageURLPart("DATA:image/png;base64,x"), model.ImageURLPart("DATA:image/png;base64,x")},
		{"image-data to media", model.ImageDataPart([]byte("hello"), "image/png"),
			model.ContentPart{Type: "media", Data: "aGVsbG8=", MediaType: "image/png"}},
		{"image-data default mediaType, keeps providerOptions", model.ContentPart{Type: "image-data", Data: "aGVsbG8=", ProviderOptions: opts},
			model.ContentPart{Type: "media", Data: "aGVsbG8=", MediaType: "image/jpeg", ProviderOptions: opts}},
		{"file-data default mediaType", model.ContentPart{Type: "file-data", Data: "aGVsbG8="},
			model.ContentPart{Type: "media", Data: "aGVsbG8=", MediaType: "application/octet-stream"}},
		{"file-data drops filename", named, model.ContentPart{Type: "media", Data: "aGVsbG8=", MediaType: "application/pdf"}},
		{"media untouched", model.MediaPart("x", "audio/wav"), model.MediaPart("x", "audio/wav")},
		{"text untouched", model.TextPart("t"), model.TextPart("t")},
		{"file-id untouched", model.FileIDPart("f"), model.FileIDPart("f")},
		{"image-file-id untouched", model.ImageFileIDPart("f"), model.ImageFileIDPart("f")},
		{"custom untouched", model.CustomPart(opts), model.CustomPart(opts)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := model.ContentOutput(tt.in).Normalize()
			want := model.ContentOutput(tt.want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if again := got.Normalize(); !cmp.Equal(again, got) {
				t.Errorf("Normalize is not idempotent: %v", cmp.Diff(got, again))
			}
		})
	}
}

func TestNormalizeLeavesOthersAndInput(t *testing.T) {
	for _, o := range []model.ToolResultOutput{
		model.TextOutput("data:image/png;base64,x"),
		model.JSONOutput(map[string]any{"type": "image-data"}),
		model.ErrorTextOutput("e"),
		model.ExecutionDeniedOutput("r"),
		{Type: "content", Value: "not parts"},
	} {
		if diff := cmp.Diff(o, o.Normalize()); diff != "" {
			t.Errorf("Normalize changed %v:\n%s", o, diff)
		}
	}
	parts := []model.ContentPart{model.ImageDataPart([]byte("x"), "image/png")}
	model.ContentOutput(parts...).Normalize()
	if parts[0].Type != "image-data" {
		t.Errorf("Normalize modified its input slice: %v", parts[0])
	}
}

func TestParseToolResultOutput(t *testing.T) {
	type point struct {
		X int `json:"x"`
	}
	tests := []struct {
		name string
		in   any
		want model.ToolResultOutput
	}{
		{"text", decode(t, `{"type":"text","value":"hi"}`), model.TextOutput("hi")},
		{"unknown keys dropped", decode(t, `{"type":"text","value":"hi","extra":{"a":1}}`), model.TextOutput("hi")},
		{"json object", decode(t, `{"type":"json","value":{"a":[1,null]}}`), model.JSONOutput(map[string]any{"a": []any{1.0, nil}})},
		{"json null", decode(t, `{"type":"json","value":null}`), model.JSONOutput(nil)},
		{"error-text", decode(t, `{"type":"error-text","value":"x"}`), model.ErrorTextOutput("x")},
		{"error-json", decode(t, `{"type":"error-json","value":false}`), model.ErrorJSONOutput(false)},
		{"execution-denied", decode(t, `{"type":"execution-denied","reason":"no"}`), model.ExecutionDeniedOutput("no")},
		{"execution-denied bare", decode(t, `{"type":"execution-denied"}`), model.ExecutionDeniedOutput("")},
		{"providerOptions", decode(t, `{"type":"text","value":"x","providerOptions":{"anthropic":{"cacheControl":{"type":"ephemeral"}}}}`),
			model.ToolResultOutput{Type: "text", Value: "x", ProviderOptions: anthropicCache}},
		{"content normalised", decode(t, `{"type":"content","value":[
			{"type":"text","text":"Image: probe.jpeg"},
			{"type":"image-url","url":"data:image/jpeg;base64,/9j/"},
			{"type":"image-url","url":"https://x/y.png"},
			{"type":"image-data","data":"AAAA","mediaType":"image/png"},
			{"type":"file-data","data":"BBBB","filename":"a.bin"},
			{"type":"file-id","fileId":{"openai":"f"}},
			{"type":"image-file-id","fileId":"i"},
			{"type":"file-url","url":"https://x/f.pdf"},
			{"type":"custom","providerOptions":{"x":{"y":"z"}}},
			{"type":"media","data":"CCCC","mediaType":"audio/mpeg"}]}`),
			model.ContentOutput(
				model.TextPart("Image: probe.jpeg"),
				model.MediaPart("data:image/jpeg;base64,/9j/", "image/jpeg"),
				model.ImageURLPart("https://x/y.png"),
				model.MediaPart("AAAA", "image/png"),
				model.MediaPart("BBBB", "application/octet-stream"),
				model.FileIDPartByProvider(map[string]string{"openai": "f"}),
				model.ImageFileIDPart("i"),
				model.FileURLPart("https://x/f.pdf"),
				model.CustomPart(map[string]any{"x": map[string]any{"y": "z"}}),
				model.MediaPart("CCCC", "audio/mpeg"),
			)},
		{"typed output keeps Go value", model.JSONOutput(point{X: 1}), model.JSONOutput(point{X: 1})},
		{"typed pointer", &model.ToolResultOutput{Type: "text", Value: "p"}, model.TextOutput("p")},
		{"typed content normalised", model.ContentOutput(model.ImageDataPart([]byte("hello"), "")),
			model.ContentOutput(model.MediaPart("aGVsbG8=", "image/jpeg"))},
		{"raw JSON", json.RawMessage(`{"type":"content","value":[{"type":"file-data","data":"AA==","mediaType":"application/pdf"}]}`),
			model.ContentOutput(model.MediaPart("AA==", "application/pdf"))},
		{"Go map with bytes and parts", map[string]any{"type": "content", "value": []any{
			map[string]any{"type": "image-data", "data": []byte("hello"), "mediaType": "image/png"},
			model.TextPart("t"),
		}}, model.ContentOutput(model.MediaPart("aGVsbG8=", "image/png"), model.TextPart("t"))},
		{"Go map with []ContentPart", map[string]any{"type": "content", "value": []model.ContentPart{model.FileIDPart("f")}},
			model.ContentOutput(model.FileIDPart("f"))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := model.ParseToolResultOutput(tt.in)
			if err != nil {
				t.Fatalf("ParseToolResultOutput: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseToolResultOutputErrors(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string // substring of the error
	}{
		{"nil", nil, "expected an object with a \"type\" field, got null"},
		{"string", "hello", "got a string"},
		{"array", []any{}, "got an array"},
		{"nil pointer", (*model.ToolResultOutput)(nil), "nil *ToolResultOutput"},
		{"no type", decode(t, `{"value":"x"}`), `output: "type" is required`},
		{"type not string", decode(t, `{"type":1}`), `output: "type" must be a string, got a number`},
		{"unknown type", decode(t, `{"type":"image","value":"x"}`), `unknown output type "image"`},
		{"text without value", decode(t, `{"type":"text"}`), `text output: "value" is required`},
		{"text with object", decode(t, `{"type":"text","value":{"a":1}}`), `text output: "value" must be a string, got an object`},
		{"error-text with null", decode(t, `{"type":"error-text","value":null}`), `error-text output: "value" must be a string, got null`},
		{"json without value", decode(t, `{"type":"json"}`), `json output: "value" is required`},
		{"json NaN", map[string]any{"type": "json", "value": map[string]any{"n": math.NaN()}}, "value.n: NaN is not a JSON number"},
		{"json func", map[string]any{"type": "error-json", "value": func() {}}, "not a JSON value"},
		{"reason not string", decode(t, `{"type":"execution-denied","reason":3}`), `"reason" must be a string`},
		{"providerOptions not object", decode(t, `{"type":"text","value":"x","providerOptions":"a"}`), `"providerOptions" must be an object, got a string`},
		{"providerOptions entry not object", decode(t, `{"type":"text","value":"x","providerOptions":{"openai":true}}`), `"providerOptions".openai must be an object, got a boolean`},
		{"content without value", decode(t, `{"type":"content"}`), `content output: "value" is required`},
		{"content value string", decode(t, `{"type":"content","value":"x"}`), `"value" must be an array of parts, got a string`},
		{"part not object", decode(t, `{"type":"content","value":["x"]}`), `content part 0: expected an object`},
		{"part unknown type", decode(t, `{"type":"content","value":[{"type":"text","text":"a"},{"type":"video","url":"u"}]}`), `content part 1 (video): unknown part type`},
		{"text part without text", decode(t, `{"type":"content","value":[{"type":"text"}]}`), `content part 0 (text): "text" is required`},
		{"image-url without url", decode(t, `{"type":"content","value":[{"type":"image-url"}]}`), `content part 0 (image-url): "url" is required`},
		{"image-url bad mediaType", decode(t, `{"type":"content","value":[{"type":"image-url","url":"u","mediaType":1}]}`), `"mediaType" must be a string`},
		{"file-url url number", decode(t, `{"type":"content","value":[{"type":"file-url","url":1}]}`), `content part 0 (file-url): "url" must be a string`},
		{"image-data without data", decode(t, `{"type":"content","value":[{"type":"image-data","mediaType":"image/png"}]}`), `content part 0 (image-data): "data" is required`},
		{"file-data bad filename", decode(t, `{"type":"content","value":[{"type":"file-data","data":"x","filename":[]}]}`), `"filename" must be a string, got an array`},
		{"media without mediaType", decode(t, `{"type":"content","value":[{"type":"media","data":"x"}]}`), `content part 0 (media): "mediaType" is required`},
		{"file-id missing", decode(t, `{"type":"content","value":[{"type":"file-id"}]}`), `content part 0 (file-id): "fileId" is required`},
		{"file-id number", decode(t, `{"type":"content","value":[{"type":"file-id","fileId":5}]}`), `"fileId" must be a string or an object of strings, got a number`},
		{"image-file-id map of numbers", decode(t, `{"type":"content","value":[{"type":"image-file-id","fileId":{"openai":5}}]}`), `"fileId".openai must be a string, got a number`},
		{"part providerOptions", decode(t, `{"type":"content","value":[{"type":"custom","providerOptions":[]}]}`), `content part 0 (custom): "providerOptions" must be an object, got an array`},
		{"raw JSON syntax", json.RawMessage(`{"type":`), "invalid tool result output"},
		{"typed invalid", model.ToolResultOutput{Type: "text", Value: 3}, `"value" must be a string, got a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := model.ParseToolResultOutput(tt.in)
			if err == nil {
				t.Fatalf("ParseToolResultOutput(%v) succeeded, want an error containing %q", tt.in, tt.want)
			}
			if !errors.Is(err, model.ErrInvalidToolResultOutput) {
				t.Errorf("error %v does not wrap ErrInvalidToolResultOutput", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestUnmarshalRejectsInvalid(t *testing.T) {
	var o model.ToolResultOutput
	err := json.Unmarshal([]byte(`{"type":"text","value":1}`), &o)
	if !errors.Is(err, model.ErrInvalidToolResultOutput) {
		t.Fatalf("err = %v, want ErrInvalidToolResultOutput", err)
	}
	// Embedded in a larger document.
	var doc struct {
		Output model.ToolResultOutput `json:"output"`
	}
	if err := json.Unmarshal([]byte(`{"output":{"type":"json","value":{"n":2}}}`), &doc); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(model.JSONOutput(map[string]any{"n": 2.0}), doc.Output); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestParts(t *testing.T) {
	if got := model.TextOutput("x").Parts(); got != nil {
		t.Errorf("Parts of text output = %v, want nil", got)
	}
	want := []model.ContentPart{model.TextPart("a")}
	if diff := cmp.Diff(want, model.ContentOutput(want...).Parts()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func ExampleToolResultOutput_Normalize() {
	out := model.ContentOutput(
		model.TextPart("Radar for San Francisco"),
		model.ImageURLPart("https://example.com/radar.png"),
		model.ImageURLPart("data:image/png;base64,iVBORw0KGgo="),
		model.ImageDataPart([]byte("raw image bytes"), ""),
	)
	b, _ := json.MarshalIndent(out.Normalize(), "", "  ")
	fmt.Println(string(b))
	// Output:
	// {
	//   "type": "content",
	//   "value": [
	//     {
	//       "type": "text",
	//       "text": "Radar for San Francisco"
	//     },
	//     {
	//       "type": "image-url",
	//       "url": "https://example.com/radar.png"
	//     },
	//     {
	//       "type": "media",
	//       "data": "data:image/png;base64,iVBORw0KGgo=",
	//       "mediaType": "image/png"
	//     },
	//     {
	//       "type": "media",
	//       "data": "cmF3IGltYWdlIGJ5dGVz",
	//       "mediaType": "image/jpeg"
	//     }
	//   ]
	// }
}

func ExampleParseToolResultOutput() {
	// What a dynamic tool's toModelOutput (or a JavaScript client) sent.
	var v any
	_ = json.Unmarshal([]byte(`{"type":"content","value":[
		{"type":"text","text":"report attached"},
		{"type":"file-data","data":"JVBERi0=","mediaType":"application/pdf","filename":"r.pdf"}]}`), &v)
	out, err := model.ParseToolResultOutput(v)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, _ := json.Marshal(out)
	fmt.Println(string(b))

	_, err = model.ParseToolResultOutput(map[string]any{"type": "text", "value": 42})
	fmt.Println(err)
	// Output:
	// {"type":"content","value":[{"type":"text","text":"report attached"},{"type":"media","data":"JVBERi0=","mediaType":"application/pdf"}]}
	// invalid tool result output: text output: "value" must be a string, got a number
}

func ExampleTextOutput() {
	b, _ := json.Marshal(model.TextOutput("72°F and sunny"))
	fmt.Println(string(b))
	// Output: {"type":"text","value":"72°F and sunny"}
}

func ExampleJSONOutput() {
	b, _ := json.Marshal(model.JSONOutput(map[string]any{"temperature": 72, "conditions": "sunny"}))
	fmt.Println(string(b))
	// Output: {"type":"json","value":{"conditions":"sunny","temperature":72}}
}

func ExampleContentOutput() {
	out := model.ContentOutput(
		model.TextPart("San Francisco: 72°F"),
		model.ImageURLPart("https://example.com/radar.png"),
		model.FileIDPartByProvider(map[string]string{"openai": "file-abc"}),
	)
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
	// Output: {"type":"content","value":[{"type":"text","text":"San Francisco: 72°F"},{"type":"image-url","url":"https://example.com/radar.png"},{"type":"file-id","fileId":{"openai":"file-abc"}}]}
}

func ExampleErrorTextOutput() {
	b, _ := json.Marshal(model.ErrorTextOutput("city not found"))
	fmt.Println(string(b))
	// Output: {"type":"error-text","value":"city not found"}
}

func ExampleExecutionDeniedOutput() {
	b, _ := json.Marshal(model.ExecutionDeniedOutput("user declined"))
	fmt.Println(string(b))
	// Output: {"type":"execution-denied","reason":"user declined"}
}
