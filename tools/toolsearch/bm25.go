package toolsearch

import (
	"math"
	"slices"
	"sync"
)

// BM25 parameters of Mastra's index (k1 = 1.5, not the textbook 1.2).
const (
	bm25K1 = 1.5
	bm25B  = 0.75
)

// bm25Index is Mastra's BM25 keyword index over named documents. It is
// immutable once built and safe for concurrent searches.
//
// Scores follow Mastra's arithmetic operation for operation (so they are
// the same float64 values): idf = ln((N - df + 0.5)/(df + 0.5) + 1) and
// term score idf * tf*(k1+1) / (tf + k1*(1 - b + b*len/avgLen)), summed
// over the query's terms, a repeated query term counting each time.
// Equal scores keep the order in which documents were first reached: by
// query term, then by document order.
type bm25Index struct {
	names []string
	// norms are each document's k1*(1 - b + b*len/avgLen), the same
	// float64 Mastra computes per term.
	norms    []float64
	postings map[string][]posting
	scratch  sync.Pool // *searchScratch sized for this index
}

// posting is one document containing a term, with the term's frequency.
type posting struct {
	doc int32
	tf  int32
}

// indexDoc is a document to index: its name and text.
type indexDoc struct {
	name, text string
}

// hit is a search result: a document and its score.
type hit struct {
	doc   int
	score float64
}

type searchScratch struct {
	scores  []float64
	touched []int
}

// newBM25Index indexes docs in order. A name given twice keeps its last
// text and its last position, as re-adding a document to Mastra's index
// does.
func newBM25Index(docs []indexDoc) *bm25Index {
	last := make(map[string]int, len(docs))
	for i, d := range docs {
		last[d.name] = i
	}
	idx := &bm25Index{postings: make(map[string][]posting)}
	total := 0
	var lengths []int
	var terms []string
	freq := make(map[string]int32)
	for i, d := range docs {
		if last[d.name] != i {
			continue
		}
		doc := int32(len(idx.names))
		terms = splitTerms(jsLower(d.text), terms[:0])
		clear(freq)
		for _, t := range terms {
			if freq[t] == 0 {
				// First occurrence: the posting goes in now, in
				// document order; its frequency is filled in below.
				idx.postings[t] = append(idx.postings[t], posting{doc: doc})
			}
			freq[t]++
		}
		for t, n := range freq {
			ps := idx.postings[t]
			ps[len(ps)-1].tf = n
		}
		idx.names = append(idx.names, d.name)
		lengths = append(lengths, len(terms))
		total += len(terms)
	}
	if n := len(idx.names); n > 0 {
		avgLen := float64(total) / float64(n)
		idx.norms = make([]float64, n)
		for i, l := range lengths {
			idx.norms[i] = bm25K1 * (1 - bm25B + bm25B*(float64(l)/avgLen))
		}
	}
	return idx
}

// size is the number of documents.
func (idx *bm25Index) size() int { return len(idx.names) }

// search scores the documents containing any of the query terms and
// returns the best limit of them, best first.
func (idx *bm25Index) search(terms []string, limit int) []hit {
	n := len(idx.names)
	if len(terms) == 0 || n == 0 || limit <= 0 {
		return nil
	}
	sc, _ := idx.scratch.Get().(*searchScratch)
	if sc == nil || len(sc.scores) != n {
		sc = &searchScratch{scores: make([]float64, n)}
	}
	defer func() {
		for _, d := range sc.touched {
			sc.scores[d] = 0
		}
		sc.touched = sc.touched[:0]
		idx.scratch.Put(sc)
	}()
	docCount := float64(n)
	for _, term := range terms {
		ps := idx.postings[term]
		if len(ps) == 0 {
			continue
		}
		df := float64(len(ps))
		idf := math.Log((docCount-df+.5)/(df+.5) + 1)
		for _, p := range ps {
			tf := float64(p.tf)
			ts := idf * (tf * (bm25K1 + 1) / (tf + idx.norms[p.doc]))
			d := int(p.doc)
			if sc.scores[d] == 0 {
				// Term scores are positive, so 0 means not reached yet.
				sc.touched = append(sc.touched, d)
			}
			sc.scores[d] += ts
		}
	}
	if limit < len(sc.touched) && limit <= maxSelect {
		return sc.best(limit)
	}
	hits := make([]hit, len(sc.touched))
	for i, d := range sc.touched {
		hits[i] = hit{doc: d, score: sc.scores[d]}
	}
	slices.SortStableFunc(hits, byScoreDesc)
	return hits[:min(limit, len(hits))]
}

// maxSelect is the largest limit for which search selects the best hits
// by insertion (O(hits*limit)) rather than sorting them all.
const maxSelect = 64

// best returns the limit best reached documents, best first, earlier
// reached first among equals: what a stable sort of all of them by score
// would start with.
func (sc *searchScratch) best(limit int) []hit {
	top := make([]hit, 0, limit)
	for _, d := range sc.touched {
		s := sc.scores[d]
		if len(top) == limit && s <= top[limit-1].score {
			continue
		}
		i := len(top)
		for i > 0 && top[i-1].score < s {
			i--
		}
		if len(top) < limit {
			top = append(top, hit{})
		}
		copy(top[i+1:], top[i:len(top)-1])
		top[i] = hit{doc: d, score: s}
	}
	return top
}

func byScoreDesc(a, b hit) int {
	switch {
	case a.score > b.score:
		return -1
	case a.score < b.score:
		return 1
	}
	return 0
}
