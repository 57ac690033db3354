package bgtasks

import "time"

// sweepHooks drops the hooks of tasks this Manager does not hold that
// the store shows finished (by another Manager sharing it: completed,
// failed, cancelled, or recovered). It reads the tasks finished since
// the last sweep (widened by pollMargin for other clocks) and up to a
// renewal interval ago: a task this Manager just settled has its hooks
// called first.
func (m *Manager) sweepHooks() {
	if !m.holdsForeignHooks() {
		return
	}
	cut := time.Now().Add(-m.cfg.Lease / 3)
	finished, _, err := m.store.ListTasks(m.base, Filter{
		Status:   []Status{Completed, Failed, TimedOut, Cancelled},
		FromDate: m.hooksSwept.Add(-pollMargin), ToDate: cut, DateFilterBy: ByCompletedAt,
	})
	if err != nil {
		return // the next sweep reads this window too
	}
	m.hooksSwept = cut
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, t := range finished {
		if m.hooks[t.ID] != nil && !m.holds(t.ID) {
			delete(m.hooks, t.ID)
		}
	}
}

// holdsForeignHooks reports whether some hooks belong to tasks this
// Manager does not hold.
func (m *Manager) holdsForeignHooks() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id := range m.hooks {
		if !m.holds(id) {
			return true
		}
	}
	return false
}

// holds reports whether an execution of this Manager holds the task
// (see isActive); m.mu is held.
func (m *Manager) holds(id string) bool {
	_, unrecorded := m.unrecorded[id]
	return m.active[id] != nil || m.finishing[id] || unrecorded
}
