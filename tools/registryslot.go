package tools

import (
	"context"
	"sync/atomic"
)

// RegistrySlot holds the registry an agent or a workflow was registered
// with. It may be set while runs are going: every call reads it anew.
// The zero value holds none.
type RegistrySlot struct {
	p atomic.Pointer[Registry]
}

// Set makes reg the slot's registry; nil clears it.
func (s *RegistrySlot) Set(reg Registry) {
	if reg == nil {
		s.p.Store(nil)
		return
	}
	s.p.Store(&reg)
}

// Get returns the registry given to Set, or nil.
func (s *RegistrySlot) Get() Registry {
	if p := s.p.Load(); p != nil {
		return *p
	}
	return nil
}

// For returns the slot's registry, or else the registry of the tool call
// ctx belongs to ([RegistryFrom]): what a call made under ctx by the
// slot's agent or workflow reaches as ctx.Mastra().
func (s *RegistrySlot) For(ctx context.Context) Registry {
	if reg := s.Get(); reg != nil {
		return reg
	}
	return RegistryFrom(ctx)
}
