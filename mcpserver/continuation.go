package mcpserver

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/internal/wire"
)

// envelope is what the server signs into the requestState of an
// input_required result: the exact call and caller it answers, and what
// the tool suspended with. Its JSON is Mastra's ContinuationEnvelope, so
// states minted by either implementation with the same key verify in the
// other.
type envelope struct {
	Method         string          `json:"method"`
	Name           string          `json:"name"`
	ArgsHash       string          `json:"argsHash"`
	Round          int             `json:"round"`
	SuspendPayload json.RawMessage `json:"suspendPayload,omitempty"`
	Principal      string          `json:"principal"`
	IssuedAt       int64           `json:"iat"`
}

// stateCodec mints and verifies requestState strings:
// "v1.<base64url payload>.<base64url HMAC-SHA256 of 'v1.<payload>'>",
// the payload being {"p": envelope, "exp": unix seconds}.
type stateCodec struct {
	key []byte
	ttl time.Duration
	now func() time.Time
}

const stateVersion = "v1"

// Errors a requestState can fail verification with.
var (
	errStateMalformed = errors.New("malformed requestState")
	errStateSignature = errors.New("requestState signature mismatch")
	errStateExpired   = errors.New("requestState expired")
)

type statePayload struct {
	P   envelope `json:"p"`
	Exp int64    `json:"exp"`
}

func (c *stateCodec) mint(e envelope) (string, error) {
	payload, err := json.Marshal(statePayload{P: e, Exp: e.IssuedAt + int64(c.ttl/time.Second)})
	if err != nil {
		return "", fmt.Errorf("mcpserver: encode requestState: %w", err)
	}
	signed := stateVersion + "." + base64.RawURLEncoding.EncodeToString(payload)
	return signed + "." + base64.RawURLEncoding.EncodeToString(c.sign(signed)), nil
}

func (c *stateCodec) sign(s string) []byte {
	m := hmac.New(sha256.New, c.key)
	m.Write([]byte(s))
	return m.Sum(nil)
}

// verify checks the signature and the expiry and returns the envelope.
func (c *stateCodec) verify(state string) (envelope, error) {
	version, rest, ok := strings.Cut(state, ".")
	if !ok || version != stateVersion {
		return envelope{}, errStateMalformed
	}
	payloadB64, sigB64, ok := strings.Cut(rest, ".")
	if !ok {
		return envelope{}, errStateMalformed
	}
	sig, err := base64.RawURLEncoding.DecodeString(sigB64)
	if err != nil {
		return envelope{}, errStateMalformed
	}
	if !hmac.Equal(sig, c.sign(version+"."+payloadB64)) {
		return envelope{}, errStateSignature
	}
	raw, err := base64.RawURLEncoding.DecodeString(payloadB64)
	if err != nil {
		return envelope{}, errStateMalformed
	}
	var p statePayload
	if err := json.Unmarshal(raw, &p); err != nil {
		return envelope{}, errStateMalformed
	}
	if c.now().Unix() >= p.Exp {
		return envelope{}, errStateExpired
	}
	return p.P, nil
}

// hashArguments is Mastra's hashArguments: the base64url SHA-256 of the
// arguments' canonical JSON (object keys sorted, JSON.stringify's
// scalars), so that a continuation only answers the call it was issued
// for.
func hashArguments(args json.RawMessage) (string, error) {
	v, err := decodeOrdered(args)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(appendCanonical(nil, v))
	return base64.RawURLEncoding.EncodeToString(sum[:]), nil
}

func appendCanonical(b []byte, v any) []byte {
	switch v := v.(type) {
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCanonical(b, e)
		}
		return append(b, ']')
	case *wire.Object:
		keys := append([]string(nil), v.Keys...)
		sort.Strings(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsjson.AppendString(b, k, jsjson.Replace)
			b = append(b, ':')
			val, _ := v.Get(k)
			b = appendCanonical(b, val)
		}
		return append(b, '}')
	default:
		return jsjson.Append(b, v, "")
	}
}
