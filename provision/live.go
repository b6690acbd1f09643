package provision

import (
	"fmt"
	"sync"

	"github.com/tender-sh/tender/playbooks"
)

// MaxLiveLines bounds the Output events of one task on one host: past
// it, one more says the rest is in the result.
const MaxLiveLines = 10000

// maxLiveLine bounds one Output event's line.
const maxLiveLine = 64 << 10

// liveOutput is the Env.Output of task t on h: each line an Output
// event, up to MaxLiveLines of stdout and stderr together.
func (pr *playRun) liveOutput(h *hostRun, t *playbooks.Task) func(string, bool) {
	var mu sync.Mutex
	n := 0
	task := t.DisplayName()
	return func(line string, stderr bool) {
		mu.Lock()
		defer mu.Unlock()
		n++
		switch {
		case n <= MaxLiveLines:
			if len(line) > maxLiveLine {
				line = line[:maxLiveLine] + " [line cut: the task's result holds it whole]"
			}
			pr.rn.emit(Event{Kind: Output, Play: pr.name, Task: task, Host: h.name, Msg: line, Stderr: stderr})
		case n == MaxLiveLines+1:
			pr.rn.emit(Event{Kind: Output, Play: pr.name, Task: task, Host: h.name,
				Msg: fmt.Sprintf("[live output stops after %d lines: the task's result holds them all]", MaxLiveLines)})
		}
	}
}
