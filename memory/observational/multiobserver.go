package observational

import (
	"context"
	_ "embed"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gomastra/mastra/model"
)

// observerMultiSystemPrompt is buildObserverSystemPrompt(true, undefined,
// false, extractors) (observer-agent.ts): the multi-thread observer's
// instructions, cut by testdata/gen-multi.mjs as prompts.go's are.
//
//go:embed prompts/observer-system-multi.txt
var observerMultiSystemPrompt string

// maxTokensPerBatch is Mastra's observation.maxTokensPerBatch default:
// the size of the threads' messages one multi-thread observer call is
// given (a thread larger than it goes alone).
const maxTokensPerBatch = 10_000

// observerMultiTaskPrompt is buildMultiThreadObserverTaskPrompt
// (observer-agent.ts) for threads in order, with the previous
// observations ("": none) and each thread's hints.
func observerMultiTaskPrompt(existing string, order []string, hints map[string]ThreadHints) string {
	var b strings.Builder
	if existing != "" {
		b.WriteString("## Previous Observations\n\n" + existing + "\n\n---\n\n")
		b.WriteString("Do not repeat these existing observations. Your new observations will be appended to the existing observations.\n\n")
	}
	var prior []string
	for _, id := range order {
		h := hints[id]
		if h.CurrentTask == "" && h.SuggestedResponse == "" {
			continue
		}
		lines := []string{"- thread " + id}
		if h.CurrentTask != "" {
			lines = append(lines, "  - prior current-task: "+h.CurrentTask)
		}
		if h.SuggestedResponse != "" {
			lines = append(lines, "  - prior suggested-response: "+h.SuggestedResponse)
		}
		prior = append(prior, strings.Join(lines, "\n"))
	}
	if len(prior) > 0 {
		b.WriteString("## Prior Thread Metadata\n\n" + strings.Join(prior, "\n") + "\n\n")
		b.WriteString("Use each thread's prior current-task, suggested-response as continuity hints, then update them based on that thread's new messages.\n\n---\n\n")
	}
	b.WriteString("## Your Task\n\n")
	b.WriteString("Extract new observations from each thread. Output your observations grouped by thread using <thread id=\"...\"> tags inside your <observations> block. Each thread block should contain that thread's observations, current-task, suggested-response.\n\n")
	b.WriteString("Example output format:\n<observations>\n<thread id=\"thread1\">\nDate: Dec 4, 2025\n* 🔴 (14:30) User prefers direct answers\n" +
		"<current-task>Working on feature X</current-task>\n<suggested-response>Continue with the implementation</suggested-response>\n</thread>\n" +
		"<thread id=\"thread2\">\nDate: Dec 5, 2025\n* 🔴 (09:15) User asked about deployment\n" +
		"<current-task>Discussing deployment options</current-task>\n<suggested-response>Explain the deployment process</suggested-response>\n</thread>\n</observations>")
	return b.String()
}

// observerMultiHistory is buildMultiThreadObserverHistoryMessage
// (observer-agent.ts): a user message with a heading, then each
// thread's messages as observerHistory writes them between
// <thread id="..."> and </thread> parts, a blank line between threads,
// attachments numbered across the threads.
func observerMultiHistory(threads []threadPending, loc *time.Location) model.Message {
	out := model.Message{Role: model.RoleUser, Content: []model.Part{model.Text("## New Message History to Observe\n\nThe following messages are from " +
		strconv.Itoa(len(threads)) + " different conversation threads. Each thread is wrapped in a <thread id=\"...\"> tag.\n\n")}}
	images, files := 0, 0 // numbered across the threads
	for i, t := range threads {
		sections := numberedSections(t.msgs, loc, 0, &images, &files)
		if len(sections) == 0 {
			continue
		}
		out.Content = append(out.Content, model.Text("<thread id=\""+t.threadID+"\">\n"))
		for _, s := range sections {
			out.Content = append(out.Content, model.Text(s))
		}
		out.Content = append(out.Content, model.Text("\n</thread>"))
		if i < len(threads)-1 {
			out.Content = append(out.Content, model.Text("\n\n"))
		}
	}
	return out
}

var (
	threadBlock = regexp.MustCompile(`(?i)<thread\s+id="([^"]+)">([\s\S]*?)</thread>`)
	// extractorSections' patterns, as stripExtractorSections removes
	// them, one tag after the other.
	stripSections = []*regexp.Regexp{
		regexp.MustCompile(`(?i)[ \t]*<current-task>[\s\S]*?</current-task>\s*`),
		regexp.MustCompile(`(?i)[ \t]*<suggested-response>[\s\S]*?</suggested-response>\s*`),
	}
)

// parseMultiObserverOutput is parseMultiThreadObserverOutput
// (observer-agent.ts): the <thread id="..."> blocks of the first
// <observations> block (or of the whole output), each with its
// observations and its first <current-task> and <suggested-response>;
// empty blocks are skipped.
func parseMultiObserverOutput(out string) map[string]parsed {
	body := out
	if m := observationsBlock.FindStringSubmatch(out); m != nil {
		body = m[1]
	}
	threads := map[string]parsed{}
	for _, m := range threadBlock.FindAllStringSubmatch(body, -1) {
		if m[2] == "" {
			continue
		}
		obs := m[2]
		for _, re := range stripSections {
			obs = re.ReplaceAllString(obs, "")
		}
		threads[m[1]] = parsed{
			Observations:      sanitizeObservationLines(strings.TrimSpace(obs)),
			CurrentTask:       firstSection(anyCurrentTask, m[2]),
			SuggestedResponse: firstSection(anySuggested, m[2]),
		}
	}
	return threads
}

// batchThreads splits threads, in order, into batches of at most
// maxTokensPerBatch tokens of messages each, as Mastra's multi-thread
// observation strategy does.
func batchThreads(threads []threadPending) [][]threadPending {
	var out [][]threadPending
	var cur []threadPending
	size := 0
	for _, t := range threads {
		if size+t.tokens > maxTokensPerBatch && len(cur) > 0 {
			out = append(out, cur)
			cur, size = nil, 0
		}
		cur = append(cur, t)
		size += t.tokens
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// callMultiObserver has the multi-thread observer compress the batch's
// threads in one call, given the existing observations and the threads'
// hints (by thread id), and returns the observations of each of the
// batch's threads it answered for.
// A looping answer is asked again once, as the single-thread observer's;
// an answer with no thread's observations is an error. An answer for a
// batch of one thread with no <thread> block is read as a single-thread
// observer's answer.
func (p *Processor) callMultiObserver(ctx context.Context, existing string, hints map[string]ThreadHints, batch []threadPending) (map[string]parsed, error) {
	order := make([]string, len(batch))
	asked := map[string]bool{}
	for i, t := range batch {
		order[i] = t.threadID
		asked[t.threadID] = true
	}
	text, err := p.askObserver(ctx, observerMultiSystemPrompt, observerMultiTaskPrompt(existing, order, hints),
		observerMultiHistory(batch, p.cfg.Location), "the multi-thread observer", fmt.Sprintf("%d threads", len(batch)))
	if err != nil {
		return nil, err
	}
	threads := parseMultiObserverOutput(text)
	if len(threads) == 0 && len(batch) == 1 {
		// One thread answered without <thread> blocks: read as the
		// single-thread observer's answer (Mastra drops the messages).
		threads = map[string]parsed{batch[0].threadID: parseObserverOutput(text)}
	}
	out := map[string]parsed{}
	for id, r := range threads {
		if asked[id] && strings.TrimSpace(r.Observations) != "" {
			out[id] = r
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("observational memory: the multi-thread observer's answer holds no thread's observations, so %d threads stay unobserved: %q", len(batch), clip(text, 200))
	}
	return out, nil
}
