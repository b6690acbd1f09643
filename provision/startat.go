package provision

import (
	"fmt"
	"sync"

	"github.com/tender-sh/tender/internal/fnmatch"
	"github.com/tender-sh/tender/playbooks"
)

// StartAtError says that no task matched Runner.StartAt: the run went
// through every play and ran no task, as ansible-playbook does before it
// reports the same.
type StartAtError struct{ Pattern string }

// Error returns the message the user sees.
func (e *StartAtError) Error() string {
	return fmt.Sprintf("No matching task %q found. Note: --start-at-task can only follow static includes.", e.Pattern)
}

// startAt is what is left of Runner.StartAt: the pattern, until a task
// matches it.
type startAt struct {
	mu      sync.Mutex
	pattern string
}

// startAtMatches reports whether task t is the one --start-at-task names:
// its name or its display name ("role : name"), equal or as a glob.
func startAtMatches(pat string, t *playbooks.Task) bool {
	for _, n := range []string{t.Name, t.DisplayName()} {
		if n != "" && (n == pat || fnmatch.Match(pat, n)) {
			return true
		}
	}
	return false
}

// pending reports whether the run is still looking for its first task.
func (s *startAt) pending() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pattern != ""
}

// skip reports whether t is skipped because the run has not reached the
// task it starts at; the task that matches ends the search and runs.
func (s *startAt) skip(t *playbooks.Task) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pattern == "" {
		return false
	}
	if startAtMatches(s.pattern, t) {
		s.pattern = ""
		return false
	}
	return true
}

// looking reports whether the run still looks for its first task.
func (s *startAt) looking() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pattern != ""
}

// inPlay reports whether play p holds the task the run starts at (or the
// run is not looking for one): a play without it runs nothing, not even
// fact gathering.
func (s *startAt) inPlay(p *playbooks.Play) bool {
	s.mu.Lock()
	pat := s.pattern
	s.mu.Unlock()
	if pat == "" {
		return true
	}
	for _, l := range p.ListTasks() {
		if startAtMatches(pat, l.Task) {
			return true
		}
	}
	return false
}
