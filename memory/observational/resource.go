package observational

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gomastra/mastra/processors"
)

// threadPending is one thread's unobserved messages and their size.
type threadPending struct {
	threadID string
	msgs     []stored
	tokens   int
}

// advanceResource is advance in resource scope, Mastra's multi-thread
// observer: the current thread's unobserved messages (from msgs, its
// latest) and the other threads' (others, as shown to the model) count
// towards MessageTokens, as Mastra's getStatus counts them; once they
// reach it the largest threads' (until their size reaches it) are
// observed, oldest thread first, each into its <thread id> section.
func (p *Processor) advanceResource(ctx context.Context, key string, rec *Record, threadID string, msgs []stored, others []threadPending, observed map[string]bool) error {
	var all []threadPending
	total := 0
	if pending, tokens := pendingOf(msgs, observed); len(pending) > 0 {
		all = append(all, threadPending{threadID, pending, tokens})
		total = tokens
	}
	all = append(all, others...)
	if block := p.otherConversations(others, observed); block != "" {
		total += processors.EstimateTokens(block)
	}
	if total >= p.cfg.MessageTokens {
		if err := p.observeThreads(ctx, key, rec, all, pickThreads(all, p.cfg.MessageTokens), observed); err != nil {
			return err
		}
	}
	return p.reflectSync(ctx, key, rec, threadID)
}

// otherPending returns the unobserved messages of the resource's threads
// but threadID.
func (p *Processor) otherPending(ctx context.Context, resourceID, threadID string, observed map[string]bool) ([]threadPending, error) {
	threads, err := p.cfg.Storage.ListThreads(ctx, resourceID)
	if err != nil {
		return nil, fmt.Errorf("observational memory: listing the threads of resource %s: %w", resourceID, err)
	}
	var all []threadPending
	for _, th := range threads {
		if th.ID == threadID {
			continue
		}
		ms, err := p.threadMessages(ctx, th.ID, observed, 0)
		if err != nil {
			return nil, err
		}
		if pending, tokens := pendingOf(ms, observed); len(pending) > 0 {
			all = append(all, threadPending{th.ID, pending, tokens})
		}
	}
	return all, nil
}

// otherConversations is Mastra's formatUnobservedContextBlocks: each
// other thread's messages not observed, as the observer's history writes
// them with parts cut at 500 characters, in an <other-conversation>
// block.
func (p *Processor) otherConversations(others []threadPending, observed map[string]bool) string {
	var blocks []string
	for _, t := range others {
		var msgs []stored
		for _, m := range t.msgs {
			if !observed[m.ID] {
				msgs = append(msgs, m)
			}
		}
		if text := strings.Join(historySections(msgs, p.cfg.Location, 500), "\n"); text != "" {
			blocks = append(blocks, "<other-conversation id=\""+t.threadID+"\">\n"+text+"\n</other-conversation>")
		}
	}
	return strings.Join(blocks, "\n\n")
}

// pickThreads picks the threads to observe as Mastra does: the largest
// first while the picked ones' size is below threshold, then ordered by
// their oldest message.
func pickThreads(all []threadPending, threshold int) []threadPending {
	bySize := slices.Clone(all)
	slices.SortStableFunc(bySize, func(a, b threadPending) int { return b.tokens - a.tokens })
	var picked []threadPending
	sum := 0
	for _, t := range bySize {
		if sum >= threshold {
			break
		}
		picked = append(picked, t)
		sum += t.tokens
	}
	slices.SortStableFunc(picked, func(a, b threadPending) int { return a.msgs[0].CreatedAt.Compare(b.msgs[0].CreatedAt) })
	return picked
}

// observeThreads observes threads, the picked ones of all, into rec as
// Mastra's multi-thread observer does: in batches of up to
// maxTokensPerBatch tokens, one observer call a batch, the calls run
// together; then each thread the answers covered gets its section, in
// threads' order, and rec is stored once (PendingMessageTokens: the
// size of the threads left). A failed call fails the observation and
// stores nothing; a thread an answer left out stays unobserved (Mastra
// would mark its messages observed with empty observations).
func (p *Processor) observeThreads(ctx context.Context, key string, rec *Record, all, threads []threadPending, observed map[string]bool) error {
	p.setBusy(key, func(b *busyFlags) { b.observing = true })
	defer p.setBusy(key, func(b *busyFlags) { b.observing = false })
	results, err := p.observeBatches(ctx, rec.ActiveObservations, rec.Threads, batchThreads(threads))
	if err != nil {
		return err
	}
	left := 0
	for _, t := range all {
		left += t.tokens
	}
	for _, t := range threads {
		out, ok := results[t.threadID]
		if !ok {
			continue
		}
		p.apply(rec, t.threadID, out, ids(t.msgs), t.tokens, newest(t.msgs, p.cfg.Now))
		for _, m := range t.msgs {
			observed[m.ID] = true
		}
		left -= t.tokens
	}
	rec.PendingMessageTokens = left
	return p.save(ctx, *rec)
}

// observeBatches runs one multi-thread observer call a batch, together,
// and returns the threads' observations; the first error fails them all.
func (p *Processor) observeBatches(ctx context.Context, existing string, hints map[string]ThreadHints, batches [][]threadPending) (map[string]parsed, error) {
	type answer struct {
		out map[string]parsed
		err error
	}
	answers := make([]answer, len(batches))
	var wg sync.WaitGroup
	for i, b := range batches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := p.callMultiObserver(ctx, existing, hints, b)
			answers[i] = answer{out, err}
		}()
	}
	wg.Wait()
	results := map[string]parsed{}
	for _, a := range answers {
		if a.err != nil {
			return nil, a.err
		}
		for id, r := range a.out {
			results[id] = r
		}
	}
	return results, nil
}
