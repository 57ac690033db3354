package toolsearch

import "slices"

// nameSet is a set of tool names that keeps insertion order (a
// JavaScript Set). The zero value is empty and ready to use.
type nameSet struct {
	names []string
	has   map[string]struct{}
}

func (s *nameSet) contains(name string) bool {
	_, ok := s.has[name]
	return ok
}

// add appends name unless it is already in the set.
func (s *nameSet) add(name string) {
	if s.contains(name) {
		return
	}
	if s.has == nil {
		s.has = make(map[string]struct{})
	}
	s.has[name] = struct{}{}
	s.names = append(s.names, name)
}

// remove deletes name, keeping the others' order.
func (s *nameSet) remove(name string) {
	if !s.contains(name) {
		return
	}
	delete(s.has, name)
	s.names = slices.DeleteFunc(s.names, func(n string) bool { return n == name })
}

func (s *nameSet) len() int { return len(s.names) }

// list is a copy of the names in order.
func (s *nameSet) list() []string { return slices.Clone(s.names) }

// setOf is a set holding names in order.
func setOf(names []string) *nameSet {
	s := &nameSet{}
	for _, n := range names {
		s.add(n)
	}
	return s
}
