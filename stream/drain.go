package stream

import "iter"

// DrainAfterStop yields seq's chunks while its reader reads them; once
// the reader stops, it goes on draining seq, yielding nothing, until seq
// ends, and only then returns. left, when not nil, is called once, when
// the reader stops before seq's end. A run whose stream is read this way
// goes on to its end when its reader goes away.
func DrainAfterStop(seq iter.Seq2[Chunk, error], left func()) iter.Seq2[Chunk, error] {
	return func(yield func(Chunk, error) bool) {
		attached := true
		for c, err := range seq {
			if attached && !yield(c, err) {
				attached = false
				if left != nil {
					left()
				}
			}
		}
	}
}
