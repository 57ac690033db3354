package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Task statuses (the wire values).
const (
	taskWorking       = "working"
	taskInputRequired = "input_required"
	taskCompleted     = "completed"
	taskFailed        = "failed"
	taskCancelled     = "cancelled"
)

// serverTask is one task. Its fields are guarded by the store's mutex.
type serverTask struct {
	id        string
	principal string
	status    string
	message   string
	created   time.Time
	updated   time.Time
	result    json.RawMessage            // completed: the CallToolResult
	err       *jsonrpc.Error             // failed
	pending   map[string]json.RawMessage // unanswered input requests
	collected map[string]json.RawMessage // answers of this round so far
	answers   chan map[string]json.RawMessage
	cancel    context.CancelFunc
}

// terminal tells whether the task has ended.
func (t *serverTask) terminal() bool {
	return t.status == taskCompleted || t.status == taskFailed || t.status == taskCancelled
}

// taskStore keeps a server's tasks in memory, bounded by count and TTL.
type taskStore struct {
	opts  TasksOptions
	now   func() time.Time
	mu    sync.Mutex
	tasks map[string]*serverTask
	order []string // creation order, for dropping the oldest finished task
}

func newTaskStore(opts TasksOptions) *taskStore {
	return &taskStore{opts: opts.withDefaults(), now: time.Now, tasks: map[string]*serverTask{}}
}

// create registers a working task of principal, or returns nil when the
// store is full of unfinished tasks.
func (s *taskStore) create(principal string, cancel context.CancelFunc) *serverTask {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked()
	if len(s.tasks) >= s.opts.MaxTasks && !s.dropOldestFinishedLocked() {
		return nil
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	now := s.now()
	t := &serverTask{
		id: hex.EncodeToString(b[:]), principal: principal, status: taskWorking,
		created: now, updated: now, cancel: cancel,
		answers: make(chan map[string]json.RawMessage, 1),
	}
	s.tasks[t.id] = t
	s.order = append(s.order, t.id)
	return t
}

// get returns a copy of principal's task id, or false when there is none.
func (s *taskStore) get(id, principal string) (serverTask, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked()
	t, ok := s.tasks[id]
	if !ok || t.principal != principal {
		return serverTask{}, false
	}
	cp := *t
	return cp, true
}

// finish moves a task that has not ended to its terminal state.
func (s *taskStore) finish(t *serverTask, status string, result json.RawMessage, err *jsonrpc.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.terminal() {
		return
	}
	t.status, t.result, t.err, t.pending = status, result, err, nil
	t.updated = s.now()
}

// askInput parks a running task as input_required with requests.
func (s *taskStore) askInput(t *serverTask, requests map[string]json.RawMessage, message string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.terminal() {
		return false
	}
	t.status, t.pending, t.collected, t.message, t.updated = taskInputRequired, requests, nil, message, s.now()
	return true
}

// resumed marks an input_required task working again.
func (s *taskStore) resumed(t *serverTask) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !t.terminal() {
		t.status, t.pending, t.message, t.updated = taskWorking, nil, "", s.now()
	}
}

// update records answers to pending input requests of principal's task.
// Answers to keys that are not pending are ignored; once every pending
// request is answered the collected answers go to the task's runner.
// It returns false when there is no such task.
func (s *taskStore) update(id, principal string, answers map[string]json.RawMessage) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tasks[id]
	if !ok || t.principal != principal {
		return false
	}
	if t.status != taskInputRequired || len(t.pending) == 0 {
		return true
	}
	answered := false
	for k, v := range answers {
		if _, want := t.pending[k]; want {
			if t.collected == nil {
				t.collected = map[string]json.RawMessage{}
			}
			t.collected[k] = v
			delete(t.pending, k)
			answered = true
		}
	}
	if !answered {
		return true
	}
	t.updated = s.now()
	if len(t.pending) == 0 {
		t.answers <- t.collected
		t.collected = nil
	}
	return true
}

// cancel cancels principal's task when it has not ended; false when
// there is no such task.
func (s *taskStore) cancel(id, principal string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tasks[id]
	if !ok || t.principal != principal {
		return false
	}
	if !t.terminal() {
		t.status, t.pending, t.updated = taskCancelled, nil, s.now()
		t.cancel()
	}
	return true
}

// sweepLocked drops tasks that ended more than TTL ago and cancels tasks
// that have waited for input longer than TTL.
func (s *taskStore) sweepLocked() {
	now := s.now()
	kept := s.order[:0]
	for _, id := range s.order {
		t := s.tasks[id]
		if t.status == taskInputRequired && now.Sub(t.updated) > s.opts.TTL {
			t.status, t.pending, t.message, t.updated = taskCancelled, nil, "expired waiting for input", now
			t.cancel()
		}
		if t.terminal() && now.Sub(t.updated) > s.opts.TTL {
			delete(s.tasks, id)
			continue
		}
		kept = append(kept, id)
	}
	s.order = kept
}

// dropOldestFinishedLocked removes the oldest ended task; false when
// every task is still running.
func (s *taskStore) dropOldestFinishedLocked() bool {
	for i, id := range s.order {
		if s.tasks[id].terminal() {
			delete(s.tasks, id)
			s.order = append(s.order[:i], s.order[i+1:]...)
			return true
		}
	}
	return false
}
