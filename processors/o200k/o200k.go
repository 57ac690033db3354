// Package o200k counts tokens exactly as OpenAI's o200k_base encoding
// (GPT-4o and later, js-tiktoken's "o200k_base") cuts them, for
// processors.TokenLimiter:
//
//	processors.TokenLimiter{Limit: 8000, Counter: o200k.Counter}
//
// The encoding's ranks are embedded in the binary (github.com/pkoukk/
// tiktoken-go-loader, about 3.6 MB): nothing is downloaded, at build time
// or at run time. They are decoded on the first count (under a second,
// and about 20 MB of memory kept for the life of the process; Load does
// it ahead of time). Counting is slower than the estimate: about 30 ms for a
// 100-message, 30 KB history, against 0.3 to 0.6 ms for the estimate.
//
// The counts are OpenAI's tokenizer's (its pattern's \s is Unicode's white
// space). js-tiktoken's, whose \s is JavaScript's, differ only on text
// holding U+FEFF or U+0085 (JavaScript counts the first as white space,
// not the second).
//
// Mastra 1.71 itself counts with an estimate (processors.Estimate, the
// TokenLimiter's default); this package is for budgets that must hold
// exactly against OpenAI's tokenizer.
package o200k

import (
	"strings"
	"sync"

	"github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"

	"github.com/gomastra/mastra/processors"
)

// Counter counts with Count.
var Counter processors.Counter = processors.CounterFunc(Count)

// Count returns the number of o200k_base tokens of text. Special tokens
// such as <|endoftext|> are counted as the plain text they are (as
// js-tiktoken's encode(text, [], []) counts them). It panics if the
// embedded ranks cannot be decoded, which only a corrupt build could
// cause.
func Count(text string) int {
	if text == "" {
		return 0
	}
	enc, err := encoding()
	if err != nil {
		panic("o200k: " + err.Error())
	}
	return len(enc.EncodeOrdinary(text))
}

// Load decodes the embedded ranks now rather than on the first Count (to
// keep that cost out of a run's first step), and reports an error instead
// of Count's panic.
func Load() error {
	_, err := encoding()
	return err
}

// pattern is o200k_base's pre-tokenisation expression, as OpenAI publishes
// it.
var pattern = strings.Join([]string{
	`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
	`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
	`\p{N}{1,3}`,
	` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
	`\s*[\r\n]+`,
	`\s+(?!\S)`,
	`\s+`,
}, "|")

// encoding builds the encoder from the embedded ranks, once, without
// touching tiktoken-go's process-wide loader.
var encoding = sync.OnceValues(func() (*tiktoken.Tiktoken, error) {
	ranks, err := loader.NewOfflineLoader().LoadTiktokenBpe("o200k_base.tiktoken")
	if err != nil {
		return nil, err
	}
	special := map[string]int{"<|endoftext|>": 199999, "<|endofprompt|>": 200018}
	bpe, err := tiktoken.NewCoreBPE(ranks, special, pattern)
	if err != nil {
		return nil, err
	}
	set := map[string]any{}
	for k := range special {
		set[k] = true
	}
	return tiktoken.NewTiktoken(bpe, &tiktoken.Encoding{Name: "o200k_base", PatStr: pattern, MergeableRanks: ranks, SpecialTokens: special}, set), nil
})
